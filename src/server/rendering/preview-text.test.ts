import { describe, expect, it } from 'vitest';
import { countOf, escapeHtml, oneLine, truncate } from './preview-text.ts';

describe('preview text', () => {
  it('escapes the five characters that matter in text and quoted attributes; emoji pass', () => {
    expect(escapeHtml(`<a href="x">Tom's & 🎸</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; 🎸&lt;/a&gt;',
    );
  });

  it('puts text on one line: control characters and white space runs become one space', () => {
    expect(oneLine(' a\n\tb\u0000c\u0085  d ')).toBe('a b c d');
    // Half an emoji is not UTF-8: it becomes the replacement character.
    expect(oneLine('x\uD83Dy')).toBe('x\uFFFDy');
  });

  it('cuts at the last word boundary before the limit, with an ellipsis and no dangling comma', () => {
    expect(truncate('short enough', 200)).toBe('short enough');
    expect(truncate('one two, three four', 10)).toBe('one two…');
    expect(truncate('one two, three four', 16)).toBe('one two, three…');
  });

  it('cuts a text without late spaces between characters, never inside an emoji', () => {
    const family = '👩‍👩‍👧'; // several code points, one character to a reader
    const text = `a${family.repeat(20)}`;
    const cut = truncate(text, 12);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.slice(1, -1)).toBe(family.repeat((cut.length - 2) / family.length));
  });

  it('counts in English', () => {
    expect(countOf(1, 'video', 'videos')).toBe('1 video');
    expect(countOf(0, 'video', 'videos')).toBe('0 videos');
    expect(countOf(5000, 'video', 'videos')).toBe('5,000 videos');
  });
});
