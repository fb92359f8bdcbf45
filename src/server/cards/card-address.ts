import { DEFAULT_LOCALE, LANGUAGE_PARAM } from '../../shared/locales.ts';

// Where a view's preview card is, and its size: what the link previews name in the head, apart
// from the drawing (card-image.ts) so that writing a head never loads the image library.

/** A preview card's size: what unfurlers ask for (a 1.91:1 picture). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export const CARDS_PREFIX = '/cards';
export const HOME_CARD = `${CARDS_PREFIX}/home.png`;

/**
 * The card of a view's path (and `index`, for a playlist's item N), its words in `locale`
 * (`hl`, as a view's own link names its language; English without it): a preview names the
 * card in its own language.
 */
export function cardPath(
  viewPath: string,
  index?: number,
  locale: string = DEFAULT_LOCALE,
): string {
  const query = new URLSearchParams();
  if (index !== undefined) query.set('index', String(index));
  if (locale !== DEFAULT_LOCALE) query.set(LANGUAGE_PARAM, locale);
  const search = query.size === 0 ? '' : `?${query}`;
  if (viewPath === '/') return `${HOME_CARD}${search}`;
  return `${CARDS_PREFIX}${viewPath.replace(/\/$/, '')}.png${search}`;
}
