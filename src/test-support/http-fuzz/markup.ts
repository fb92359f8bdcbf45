// Markup the fuzzer puts into requests, and how to tell whether an answer carries it live.
//
// Each payload calls `fz(n)`, a name nothing in the app, the catalogue or the build uses. What
// makes a payload dangerous is its opening, from the tag or the quote that breaks out up to the
// call (`<img src=x onerror=fz(`); finding that verbatim in an HTML answer, in any letter case,
// can only mean the input went out unescaped. Escaped forms (`&lt;img`, `\u003cimg`, `\"`)
// never match, nor does a payload percent-encoded into a link.

export const MARKUP_PAYLOADS = [
  '<script>fz(1)</script>',
  '"><img src=x onerror=fz(2)>',
  "'><svg/onload=fz(3)>",
  '</title><script>fz(4)</script>',
  '" autofocus onfocus="fz(5)',
  '</script><script>fz(6)</script>',
  '<iframe srcdoc="fz(7)">',
  '<!--fz(8)-->',
  '"><a href="javascript:fz(9)">x</a>',
  '<style>@import "fz(10)";</style>',
] as const;

/** Each payload's live part, lower-cased: from its `<` (or its breaking quote) to `fz(`. */
const LIVE_PARTS = [
  ...new Set(
    MARKUP_PAYLOADS.map((payload) => {
      const tag = payload.lastIndexOf('<', payload.indexOf('fz('));
      const start = tag === -1 ? payload.indexOf('"') : tag;
      return payload.slice(start, payload.indexOf('fz(') + 3).toLowerCase();
    }),
  ),
];

/** The live parts that would also break out of a JSON string: they hold a quote. */
const QUOTED_PARTS = MARKUP_PAYLOADS.filter((p) => p.includes('"')).map((p) =>
  p.slice(0, p.indexOf('fz(') + 3),
);

/** Why `text`, an HTML (or other non-JSON) body or a header value, carries live markup; else null. */
export function liveMarkup(text: string): string | null {
  const lower = text.toLowerCase();
  for (const part of LIVE_PARTS) {
    const at = lower.indexOf(part);
    if (at !== -1)
      return `${JSON.stringify(part)} verbatim at ${at}: …${text.slice(Math.max(0, at - 60), at + 80)}…`;
  }
  return null;
}

/**
 * Why `text`, a JSON body that parsed, carries a payload's quote unescaped; else null. (A quote
 * after an odd run of backslashes is escaped: `\"><img` is the JSON for `"><img`.)
 */
export function unescapedInJson(text: string): string | null {
  for (const part of QUOTED_PARTS) {
    const quote = part.indexOf('"');
    for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
      let backslashes = 0;
      while (text[at + quote - 1 - backslashes] === '\\') backslashes += 1;
      if (backslashes % 2 === 0) return `${JSON.stringify(part)} unescaped at ${at}`;
    }
  }
  return null;
}
