import { expect, type Page } from '@playwright/test';

// The Following view's cards, read as a reader sees them: the list is virtual (only the cards
// near the window are in the page), so reading every card means scrolling through them all.

export interface CardText {
  position: number;
  setSize: number;
  text: string;
  /** The entries' titles the card shows. */
  entries: string[];
}

/** The cards in the page now. */
export function cardsInPage(page: Page): Promise<CardText[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main li[aria-posinset]')].map((card) => ({
      position: Number(card.getAttribute('aria-posinset')),
      setSize: Number(card.getAttribute('aria-setsize')),
      text: card.innerText,
      entries: [...card.querySelectorAll('ol a')].map((a) => (a as HTMLElement).innerText),
    })),
  );
}

/** Every card, from the first to the last, scrolling down half a window at a time. */
export async function everyCard(page: Page): Promise<CardText[]> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const byPosition = new Map<number, CardText>();
  let total = Infinity;
  for (let step = 0; step < 2_000 && byPosition.size < total; step++) {
    for (const card of await cardsInPage(page)) {
      total = card.setSize;
      byPosition.set(card.position, card);
    }
    await scrollHalfAWindow(page);
  }
  expect(byPosition.size).toBe(total);
  return [...byPosition.values()].sort((a, b) => a.position - b.position);
}

/**
 * Scrolls down half a window, then waits until the cards cover the window again: read sooner,
 * on a busy machine, the virtual list may not have drawn the cards scrolled into view yet, and
 * one would be skipped.
 */
function scrollHalfAWindow(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        window.scrollBy(0, window.innerHeight / 2);
        const deadline = performance.now() + 5_000;
        const covered = () => {
          const cards = [...document.querySelectorAll('main li[aria-posinset]')].map((card) =>
            card.getBoundingClientRect(),
          );
          const atEnd = window.scrollY + window.innerHeight >= document.body.scrollHeight - 1;
          return (
            cards.some((rect) => rect.top <= 1 && rect.bottom > 0) &&
            (atEnd ||
              cards.some(
                (rect) => rect.top < window.innerHeight && rect.bottom >= window.innerHeight - 1,
              ))
          );
        };
        const check = () =>
          covered() || performance.now() > deadline ? resolve() : requestAnimationFrame(check);
        requestAnimationFrame(check);
      }),
  );
}

/** The number of lists the view holds (its cards' set size), once it shows any. */
export async function followedCount(page: Page): Promise<number> {
  const first = page.locator('main li[aria-posinset="1"]');
  await first.waitFor();
  return Number(await first.getAttribute('aria-setsize'));
}
