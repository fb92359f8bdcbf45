import { expect, expectAccessible, IDS, test } from './fixtures.ts';

// The home page: the box that opens anything readable, the demo entries and the
// views opened recently.

test('the home page lists the demo catalogue and is accessible, in light and dark', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Catalogue Explorer');
  const demo = page.getByRole('region', { name: 'Demo catalogue' });
  await expect(demo.getByRole('link', { name: /Every talk, 2010–2026/ })).toHaveAttribute(
    'href',
    `/playlist/${IDS.playlist5000}`,
  );
  await expect(demo.getByRole('link', { name: /Tiny Workshop/ })).toHaveAttribute(
    'href',
    `/channel/${IDS.smallChannel}`,
  );
  // Axe in light is first-view.spec's, on a desktop and a phone; dark is here.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
});

test('the box opens IDs and explains what it cannot read', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Playlist ID, channel ID or YouTube link' });
  await box.fill('not a playlist');
  await box.press('Enter');
  await expect(page.getByRole('alert')).toContainText(
    'neither a playlist ID, a channel ID nor a link',
  );
  await expect(box).toHaveAttribute('aria-invalid', 'true');

  await box.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('alert')).toContainText('single video');

  await box.fill(IDS.smallChannel);
  await box.press('Enter');
  await expect(page).toHaveURL(`/channel/${IDS.smallChannel}`);
});

test('recently opened views are listed on the home page', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Catalogue Explorer' }).click();
  const recent = page.getByRole('region', { name: 'Recently opened' });
  await expect(recent.getByRole('link', { name: /Field recordings/ })).toHaveAttribute(
    'href',
    `/playlist/${IDS.playlist101}`,
  );
  await recent.getByRole('button', { name: 'Clear' }).click();
  await expect(recent).toHaveCount(0);
});

test('the skip link and every control are reachable by keyboard with visible focus', async ({
  page,
}) => {
  await page.goto('/');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  // The app renders once its view's code is in, which may be after the load event.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Catalogue Explorer' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Following' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Jobs' })).toBeFocused();
  await page.keyboard.press('Tab');
  const picker = page.getByRole('combobox', { name: 'Language' });
  await expect(picker).toBeFocused();
  expect(await picker.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe(
    'none',
  );
  await page.keyboard.press('Tab');
  const box = page.getByRole('textbox', { name: 'Playlist ID, channel ID or YouTube link' });
  await expect(box).toBeFocused();
  const outline = await box.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
});

test.describe('the box before the app takes over', () => {
  const LINK = `https://www.youtube.com/playlist?list=${IDS.playlist5000}`;

  test.describe('with scripts off', () => {
    test.use({ javaScriptEnabled: false });

    test('a pasted playlist link opens the playlist, and a bad one says why', async ({
      page,
      expectConsoleErrors,
    }) => {
      // The page that says why answers 400, which the browser logs.
      expectConsoleErrors(/status of 400/);
      await page.goto('/');
      const box = page.getByRole('textbox', { name: 'Playlist ID, channel ID or YouTube link' });
      await box.fill(LINK);
      await box.press('Enter');
      await expect(page).toHaveURL(`/playlist/${IDS.playlist5000}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Every talk');

      await page.goto('/');
      await box.fill('https://example.com/playlist?list=PL1');
      const response = page.waitForResponse((r) => r.url().includes('target='));
      await box.press('Enter');
      expect((await response).status()).toBe(400);
      await expect(page.getByRole('alert')).toContainText('example.com');
      await expect(box).toHaveValue('https://example.com/playlist?list=PL1');
      await expect(box).toHaveAttribute('aria-invalid', 'true');
    });
  });

  test('pressed before hydration, the box still opens the playlist', async ({ page }) => {
    // The app's scripts are held back until after the reader has pasted and pressed Enter.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // The frame's own goto: the fixture's waits for the hydration this test holds back.
    await page.mainFrame().goto('/', { waitUntil: 'commit' });
    const box = page.getByRole('textbox', { name: 'Playlist ID, channel ID or YouTube link' });
    await box.fill(LINK);
    await box.press('Enter');
    await expect(page).toHaveURL(`/playlist/${IDS.playlist5000}`);
    release();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Every talk');
  });
});
