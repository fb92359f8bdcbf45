// Display formatting. Human-readable strings from the catalogue (viewsText, publishedText,
// lastUpdated) are data and are shown as the service wrote them; only numbers and durations
// are formatted, in the reader's locale (shared/i18n/formats.ts).

export { formatsFor, prepareNumberFormats, type Formats } from '../../shared/i18n/formats.ts';

/** H:MM:SS, or M:SS under an hour; null (a live stream) gives null. The platform's own form,
 * read alike in every language here. */
export function formatDuration(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
