import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawCard, readsRightToLeft, type CardContent } from './card-image.ts';

// Drawing a card: always a 1200×630 PNG, whatever text it is given (scripts, markup, bidi
// controls, lengths no title has), and each line's direction its own.

const picture = () =>
  sharp({ create: { width: 480, height: 360, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();

const card = (overrides: Partial<CardContent>): CardContent => ({
  kicker: 'Playlist',
  title: 'A title',
  details: ['A channel', '12 videos'],
  images: [],
  layout: 'mosaic',
  ...overrides,
});

async function drawn(content: CardContent) {
  const png = await drawCard(content);
  const { width, height, format } = await sharp(png).metadata();
  expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'png' });
  expect(png.length).toBeLessThan(200 * 1024);
  return png;
}

describe('a card', () => {
  it.each([
    ['Latin and emoji', 'Every talk, 2010–2026 🎤'],
    ['CJK', '十分钟学会做饺子 🥟 第8集 東京の夜景'],
    ['Arabic', 'وصفة الكبسة السعودية 🍚 الحلقة 47'],
    ['Hangul and Devanagari', '한국어 노래 · हिन्दी गाने 2024'],
    ['markup', '</span><b>bold</b> & "quotes" <script>x</script>'],
    ['bidi controls', '\u202Eevil\u202C \u2067مرحبا\u2069 \u2066x'],
    ['far too long', 'word '.repeat(400)],
    ['nothing', ''],
  ])('is drawn for a title in %s, in every layout', async (_, title) => {
    const image = await picture();
    await drawn(card({ title, images: [image, null, image] }));
    await drawn(card({ title, layout: 'feature', kicker: '#2,345 of 5,000', images: [image] }));
    await drawn(card({ title, layout: 'text', details: [title] }));
  });

  it('draws a picture it cannot read as a plain tile', async () => {
    await drawn(card({ images: [Buffer.from('not an image'), null] }));
  });

  it('is not the same for two titles (the text is drawn)', async () => {
    const a = await drawn(card({ title: 'One' }));
    const b = await drawn(card({ title: 'Two' }));
    expect(a.equals(b)).toBe(false);
  });
});

describe('a line’s direction', () => {
  it('is its first letter’s', () => {
    expect(readsRightToLeft('وصفة 47')).toBe(true);
    expect(readsRightToLeft('47 وصفة')).toBe(true);
    expect(readsRightToLeft('Bread وصفة')).toBe(false);
    expect(readsRightToLeft('שלום')).toBe(true);
    expect(readsRightToLeft('🎤 2026')).toBe(false);
    expect(readsRightToLeft('')).toBe(false);
  });
});
