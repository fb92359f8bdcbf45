import type { APIRequestContext } from '@playwright/test';
import { expect, IDS, ROWS, test } from './fixtures.ts';

// The platform's own URL forms, with our host or pasted into the home page's box.

async function videoAt(
  request: APIRequestContext,
  playlistId: string,
  index: number,
): Promise<string> {
  const page = (await (await request.get(`/api/v1/playlist?id=${playlistId}`)).json()) as {
    items: Array<{ id: string; index: number }>;
  };
  const item = page.items.find((i) => i.index === index);
  if (!item) throw new Error(`no item ${index}`);
  return item.id;
}

test('/playlist?list=ID opens the playlist view', async ({ page }) => {
  await page.goto(`/playlist?list=${IDS.playlist101}`);
  await expect(page).toHaveURL(`/playlist/${IDS.playlist101}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Field recordings');
});

test('/watch?v=VIDEO&list=ID opens the playlist at that video', async ({ page, request }) => {
  const video = await videoAt(request, IDS.playlist101, 42);
  await page.goto(`/watch?v=${video}&list=${IDS.playlist101}`);
  await expect(page).toHaveURL(new RegExp(`/playlist/${IDS.playlist101}\\?v=${video}$`));
  const marked = page.locator(`${ROWS}[aria-posinset="42"]`);
  await expect(marked).toBeInViewport();
  await expect(marked.locator('[aria-current="true"]')).toBeVisible();
});

test('/watch?v=VIDEO&list=ID&index=N opens the playlist at item N', async ({ page, request }) => {
  const video = await videoAt(request, IDS.playlist5000, 77);
  await page.goto(`/watch?v=${video}&list=${IDS.playlist5000}&index=250`);
  await expect(page).toHaveURL(`/playlist/${IDS.playlist5000}?index=250`);
  await expect(page.locator(`${ROWS}[aria-posinset="250"] [aria-current="true"]`)).toBeInViewport();
});

test('/watch without a list explains itself', async ({ page }) => {
  await page.goto('/watch?v=dQw4w9WgXcQ');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nothing to open here');
  await expect(page.getByText('single video')).toBeVisible();
});

test('pasted platform URLs open the right view', async ({ page, request }) => {
  const video = await videoAt(request, IDS.playlist101, 3);
  const cases: Array<[string, string | RegExp]> = [
    [`https://www.youtube.com/playlist?list=${IDS.playlist100}`, `/playlist/${IDS.playlist100}`],
    [
      `https://m.youtube.com/playlist?list=${IDS.playlist100}&si=share`,
      `/playlist/${IDS.playlist100}`,
    ],
    [
      `https://www.youtube.com/watch?v=${video}&list=${IDS.playlist101}&index=3`,
      `/playlist/${IDS.playlist101}?index=3`,
    ],
    [
      `https://youtu.be/${video}?list=${IDS.playlist101}`,
      `/playlist/${IDS.playlist101}?v=${video}`,
    ],
    [`youtube.com/channel/${IDS.bigChannel}`, `/channel/${IDS.bigChannel}`],
    [
      `https://www.youtube.com/channel/${IDS.smallChannel}/playlists`,
      `/channel/${IDS.smallChannel}/playlists`,
    ],
  ];
  for (const [pasted, path] of cases) {
    await page.goto('/');
    const box = page.getByRole('textbox', { name: 'Playlist ID, channel ID or YouTube link' });
    await box.fill(pasted);
    await box.press('Enter');
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});
