// The service gives an item's age as text ("3 weeks ago", "Streamed 2 days ago"; spec §3.4),
// not a date. A feed needs one: the text read against the moment the page was fetched gives a
// date as precise as the text (a day for "2 days ago", a month for "1 month ago"). Text it
// cannot read gives null, and the feed falls back to when the explorer first saw the item.

const UNIT_MS: Record<string, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

const AGO = /(\d+)\s+(second|minute|hour|day|week|month|year)s?\s+ago\b/i;

export function publishedDate(text: string | null | undefined, fetchedAt: number): Date | null {
  if (!text) return null;
  const match = AGO.exec(text);
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = UNIT_MS[match[2]!.toLowerCase()]!;
  if (!Number.isSafeInteger(amount) || amount > 10_000) return null;
  return new Date(fetchedAt - amount * unit);
}
