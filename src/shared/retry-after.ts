/**
 * A Retry-After header as whole seconds from `now`: delay-seconds or an HTTP-date (RFC 9110
 * §10.2.3). A date in the past is 0; anything else unreadable is null. The app and the server
 * read the header the same way; each bounds the result to its own use.
 */
export function retryAfterSeconds(
  value: string | readonly string[] | null | undefined,
  now = Date.now(),
): number | null {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (text === undefined || text === '') return null;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP-date names its month; Date.parse would take a bare "-3" as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
