import sharp, { type OverlayOptions } from 'sharp';
import { CARD_FAMILIES, useCardFonts } from './card-fonts.ts';
import { CARD_HEIGHT, CARD_WIDTH } from './card-address.ts';

// Drawing a preview card: a 1200×630 PNG (the size unfurlers ask for) with the list's words on
// a dark ground and its thumbnails, with sharp. Each piece of text is laid out by Pango on its
// own (wrapped at word boundaries, shaped, right to left where its script is), so a title in
// any script lays out as that script does, and nothing in one line (a bidi control, say) can
// turn another. Text is fitted by stepping its size down until it fits its box, then cut.

useCardFonts();
// libvips keeps a process-wide cache of recent operations outside V8's
// heap and outside the memory plan. Each card is drawn once and then kept as its PNG
// (preview-cards.ts), so that cache would only hold memory; the catalogue's thumbnails turn it
// off too, but a card may be the first image this process makes.
sharp.cache(false);

export interface CardContent {
  /** The small line above the title: what this is ("Playlist", "#2,345 of 5,000"). */
  kicker: string;
  title: string;
  /** Lines under the title: the channel, the counts. */
  details: string[];
  /**
   * Thumbnails: one large beside the text (`feature`), up to four in a row under it
   * (`mosaic`); a null is a tile without a picture. None for `text`.
   */
  images: Array<Buffer | null>;
  layout: 'mosaic' | 'feature' | 'text';
}

const MARGIN = 60;
const GROUND = '#0f172a';
const TILE_GROUND = '#1e293b';
const ACCENT = '#7dd3fc';
const TEXT = '#f8fafc';
const MUTED = '#cbd5e1';
/** Cut before layout: no unfurler shows a card's 300th character. */
const MAX_CHARACTERS = 140;

const markup = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

/** Whether a line reads right to left: its first letter is of a right-to-left script. */
export function readsRightToLeft(text: string): boolean {
  const first = /\p{L}/u.exec(text)?.[0];
  return (
    first !== undefined &&
    /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u.test(first)
  );
}

/**
 * Explicit bidi controls (embeddings, overrides, isolates): upstream text could use them to turn
 * the reading order of its line, or mirror its neighbours'. Each line's direction comes from its
 * own first letter instead; shaping and the Unicode bidi algorithm still do the rest.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

function cut(text: string, max = MAX_CHARACTERS): string {
  const characters = [...text.replace(BIDI_CONTROLS, '').replace(/\s+/g, ' ').trim()];
  return characters.length <= max
    ? characters.join('')
    : `${characters.slice(0, max - 1).join('')}…`;
}

interface TextBox {
  width: number;
  height: number;
  /** Font sizes to try, largest first; the last one is cut to fit. */
  sizes: number[];
  bold?: boolean;
  color: string;
}

interface Laid {
  /** Raw RGBA pixels: composited as they are, never encoded on the way. */
  input: Buffer;
  width: number;
  height: number;
  rtl: boolean;
}

async function layText(text: string, box: TextBox): Promise<Laid | null> {
  const shown = cut(text);
  if (shown === '') return null;
  const rtl = readsRightToLeft(shown);
  for (const [i, size] of box.sizes.entries()) {
    const { data, info } = await sharp({
      text: {
        text: `<span foreground="${box.color}">${markup(shown)}</span>`,
        font: `${CARD_FAMILIES} ${box.bold ? 'Bold ' : ''}${size}`,
        width: box.width,
        dpi: 72,
        rgba: true,
        wrap: 'word-char',
        align: rtl ? 'right' : 'left',
      },
    })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const last = i === box.sizes.length - 1;
    if (info.height <= box.height || last) {
      // The smallest size still too tall: keep the lines that fit (rows of pixels, top first).
      const height = Math.min(info.height, box.height);
      const input = data.subarray(0, info.width * height * 4);
      return { input, width: info.width, height, rtl };
    }
  }
  return null;
}

/** A picture cut to `width`×`height` with rounded corners (raw RGBA); plain without one. */
async function tile(image: Buffer | null, width: number, height: number): Promise<OverlayOptions> {
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="14" fill="#fff"/></svg>`,
  );
  const picture =
    image === null
      ? null
      : await sharp(image)
          .resize(width, height, { fit: 'cover' })
          .ensureAlpha()
          .raw()
          .toBuffer()
          .catch(() => null);
  const base = picture
    ? sharp(picture, { raw: { width, height, channels: 4 } })
    : sharp({ create: { width, height, channels: 4, background: TILE_GROUND } });
  const input = await base
    .composite([{ input: mask, blend: 'dest-in' }])
    .raw()
    .toBuffer();
  return { input, raw: { width, height, channels: 4 } };
}

const rawInput = (laid: Laid) => ({
  input: laid.input,
  raw: { width: laid.width, height: laid.height, channels: 4 as const },
});

const place = (laid: Laid, left: number, width: number, top: number): OverlayOptions => ({
  ...rawInput(laid),
  top: Math.round(top),
  left: Math.round(laid.rtl ? left + width - laid.width : left),
});

/** The card as a PNG. */
export async function drawCard(content: CardContent): Promise<Buffer> {
  const feature = content.layout === 'feature';
  const textWidth = feature ? 560 : CARD_WIDTH - 2 * MARGIN;
  const titleHeight = content.layout === 'mosaic' ? 150 : feature ? 260 : 300;
  // Every piece at once: libvips spreads them over its threads.
  const [kicker, title, details, brand, pictures] = await Promise.all([
    layText(content.kicker, {
      width: textWidth,
      height: 48,
      sizes: [32],
      bold: true,
      color: ACCENT,
    }),
    layText(content.title, {
      width: textWidth,
      height: titleHeight,
      sizes: feature ? [52, 44, 38, 32] : [64, 54, 46, 40, 34],
      bold: true,
      color: TEXT,
    }),
    Promise.all(
      content.details.map((detail) =>
        layText(detail, { width: textWidth, height: 84, sizes: [30], color: MUTED }),
      ),
    ),
    content.layout === 'mosaic'
      ? null
      : layText('Catalogue Explorer', {
          width: 400,
          height: 40,
          sizes: [24],
          bold: true,
          color: '#94a3b8',
        }),
    pictureLayers(content),
  ]);

  const layers: OverlayOptions[] = [...pictures];
  let top = MARGIN - 8;
  for (const [laid, gap] of [
    [kicker, 10],
    [title, 16],
    ...details.map((d) => [d, 6] as const),
  ] as const) {
    if (!laid) continue;
    layers.push(place(laid, MARGIN, textWidth, top));
    top += laid.height + gap;
  }
  if (brand) {
    layers.push({
      ...rawInput(brand),
      left: CARD_WIDTH - MARGIN - brand.width,
      top: CARD_HEIGHT - MARGIN - brand.height + 8,
    });
  }

  return (
    sharp({
      create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 4, background: GROUND },
    })
      .composite(layers)
      // A palette of 256 colours, undithered: a third of a full-colour PNG, and no dithering's
      // cost (twice the encoding); gradients in the thumbnails band a little at this size.
      .png({ palette: true, quality: 90, compressionLevel: 6, effort: 1, dither: 0 })
      .toBuffer()
  );
}

/** The thumbnails, placed: one large beside the text, or a row of four under it. */
async function pictureLayers(content: CardContent): Promise<OverlayOptions[]> {
  if (content.layout === 'feature') {
    const [image = null] = content.images;
    return [{ ...(await tile(image, 520, 292)), left: CARD_WIDTH - MARGIN - 520, top: 150 }];
  }
  if (content.layout !== 'mosaic') return [];
  const count = 4;
  const gap = 20;
  const width = Math.floor((CARD_WIDTH - 2 * MARGIN - (count - 1) * gap) / count);
  const height = Math.round((width * 9) / 16);
  const images = [...content.images.slice(0, count)];
  while (images.length < count) images.push(null);
  const tiles = await Promise.all(images.map((image) => tile(image, width, height)));
  return tiles.map((placed, i) => ({
    ...placed,
    left: MARGIN + i * (width + gap),
    top: CARD_HEIGHT - MARGIN - height,
  }));
}
