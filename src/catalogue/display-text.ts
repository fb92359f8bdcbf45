// The human-readable fields (`lastUpdated`, `viewsText`, `publishedText`) are display
// strings, not dates (spec §3.4). These mirror the platform's English wording: "1.2M views",
// "3 years ago", "Updated 2 days ago".

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

export function viewsText(views: number): string {
  if (views === 0) return 'No views';
  if (views === 1) return '1 view';
  return `${compact.format(views)} views`;
}

const UNITS: Array<[name: string, seconds: number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 years ago", from unix seconds, relative to `now` (unix milliseconds). */
export function agoText(at: number, now: number): string {
  const elapsed = Math.max(0, Math.floor(now / 1000) - at);
  for (const [name, seconds] of UNITS) {
    const count = Math.floor(elapsed / seconds);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

export function lastUpdatedText(at: number, now: number): string {
  const elapsed = Math.floor(now / 1000) - at;
  if (elapsed < 24 * 3600) return 'Updated today';
  if (elapsed < 2 * 24 * 3600) return 'Updated yesterday';
  return `Updated ${agoText(at, now)}`;
}

/** The channel-videos snippet: the first sentence or so, cut at a word boundary. */
export function snippet(text: string, max = 120): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
