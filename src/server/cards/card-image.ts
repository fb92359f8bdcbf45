import sharp, { type OverlayOptions } from 'sharp';
import { CARD_FAMILIES, useCardFonts } from './card-fonts.ts';
import { CARD_HEIGHT, CARD_WIDTH } from './card-address.ts';

// Drawing a preview card: a 1200×630 PNG (the size unfurlers ask for) with the list's words on
// a dark ground and its thumbnails, with sharp. Each piece of text is laid out by Pango on its
// own (wrapped at word boundaries, shaped, right to left where its script is), so a title in
// any script lays out as that script does, and nothing in one line (a bidi control, say) can
// turn another. Text is fitted by stepping its size down until it fits its box, then cut.

useCardFonts();

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
      .png()
      .toBuffer({ resolveWithObject: true });
    const last = i === box.sizes.length - 1;
    if (info.height <= box.height || last) {
      // The smallest size still too tall: keep the lines that fit.
      const height = Math.min(info.height, box.height);
      const input =
        height === info.height
          ? data
          : await sharp(data)
              .extract({ left: 0, top: 0, width: info.width, height })
              .png()
              .toBuffer();
      return { input, width: info.width, height, rtl };
    }
  }
  return null;
}

/** A picture cut to `width`×`height` with rounded corners; a plain tile when there is none. */
async function tile(image: Buffer | null, width: number, height: number): Promise<Buffer> {
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="14" fill="#fff"/></svg>`,
  );
  const picture =
    image === null
      ? null
      : await sharp(image)
          .resize(width, height, { fit: 'cover' })
          .png()
          .toBuffer()
          .catch(() => null);
  const base =
    picture ??
    (await sharp({
      create: { width, height, channels: 4, background: TILE_GROUND },
    })
      .png()
      .toBuffer());
  return sharp(base)
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toBuffer();
}

const place = (laid: Laid, left: number, width: number, top: number): OverlayOptions => ({
  input: laid.input,
  top: Math.round(top),
  left: Math.round(laid.rtl ? left + width - laid.width : left),
});

/** The card as a PNG. */
export async function drawCard(content: CardContent): Promise<Buffer> {
  const feature = content.layout === 'feature';
  const textWidth = feature ? 560 : CARD_WIDTH - 2 * MARGIN;
  const titleHeight = content.layout === 'mosaic' ? 150 : feature ? 260 : 300;
  const layers: OverlayOptions[] = [];

  let top = MARGIN - 8;
  const kicker = await layText(content.kicker, {
    width: textWidth,
    height: 48,
    sizes: [32],
    bold: true,
    color: ACCENT,
  });
  if (kicker) {
    layers.push(place(kicker, MARGIN, textWidth, top));
    top += kicker.height + 10;
  }
  const title = await layText(content.title, {
    width: textWidth,
    height: titleHeight,
    sizes: feature ? [52, 44, 38, 32] : [64, 54, 46, 40, 34],
    bold: true,
    color: TEXT,
  });
  if (title) {
    layers.push(place(title, MARGIN, textWidth, top));
    top += title.height + 16;
  }
  for (const detail of content.details) {
    const line = await layText(detail, {
      width: textWidth,
      height: 84,
      sizes: [30],
      color: MUTED,
    });
    if (!line) continue;
    layers.push(place(line, MARGIN, textWidth, top));
    top += line.height + 6;
  }

  if (feature) {
    const [image = null] = content.images;
    layers.push({ input: await tile(image, 520, 292), left: CARD_WIDTH - MARGIN - 520, top: 150 });
  } else if (content.layout === 'mosaic') {
    const count = 4;
    const gap = 20;
    const width = Math.floor((CARD_WIDTH - 2 * MARGIN - (count - 1) * gap) / count);
    const height = Math.round((width * 9) / 16);
    const images = [...content.images.slice(0, count)];
    while (images.length < count) images.push(null);
    const tiles = await Promise.all(images.map((image) => tile(image, width, height)));
    tiles.forEach((input, i) =>
      layers.push({
        input,
        left: MARGIN + i * (width + gap),
        top: CARD_HEIGHT - MARGIN - height,
      }),
    );
  }

  const brand = await layText('Catalogue Explorer', {
    width: 400,
    height: 40,
    sizes: [24],
    bold: true,
    color: '#94a3b8',
  });
  if (brand && content.layout !== 'mosaic') {
    layers.push({
      input: brand.input,
      left: CARD_WIDTH - MARGIN - brand.width,
      top: CARD_HEIGHT - MARGIN - brand.height + 8,
    });
  }

  return sharp({
    create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 4, background: GROUND },
  })
    .composite(layers)
    .png({ palette: true, quality: 90, compressionLevel: 9, effort: 6 })
    .toBuffer();
}
