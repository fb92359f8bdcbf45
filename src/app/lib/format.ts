// Display formatting. Human-readable strings from the catalogue (viewsText,
// publishedText, lastUpdated) are shown as given; only numbers and durations are formatted here.

/** H:MM:SS, or M:SS under an hour; null (a live stream) gives null. */
export function formatDuration(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A spoken form of a duration for screen readers: "1 hour 2 minutes 3 seconds". */
export function describeDuration(seconds: number | null): string {
  if (seconds === null) return 'live';
  const total = Math.max(0, Math.floor(seconds));
  const parts: string[] = [];
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  if (s || parts.length === 0) parts.push(`${s} second${s === 1 ? '' : 's'}`);
  return parts.join(' ');
}

/**
 * Numbers are written in the interface's own language, not the browser's: the server renders
 * the first view, and the client must produce the very same text when it hydrates it.
 */
const APP_LOCALE = 'en';

// Making an Intl.NumberFormat costs far more than using one (a list renders hundreds of
// numbers), so each locale and style gets one, made on first use.
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, compact: boolean): Intl.NumberFormat {
  const key = `${locale} ${compact}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      compact ? { notation: 'compact', maximumFractionDigits: 1 } : {},
    );
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * Makes the interface's number formats ahead of their first use, each in a task of its own
 * (`nextTask` yields to the browser): the first one made costs a phone tens of milliseconds
 * (the locale's data), which would otherwise fall inside hydration's first slice and make it a
 * long task.
 */
export async function prepareNumberFormats(nextTask: () => Promise<void>): Promise<void> {
  for (const compact of [true, false]) {
    await nextTask();
    numberFormat(APP_LOCALE, compact);
  }
}

/** "1.2M", "12K", "950": compact. */
export function formatCompact(value: number, locale = APP_LOCALE): string {
  return numberFormat(locale, true).format(value);
}

/** "5,000". */
export function formatCount(value: number, locale = APP_LOCALE): string {
  return numberFormat(locale, false).format(value);
}

/** "1 video", "5,000 videos". */
export function plural(count: number, one: string, many: string, locale = APP_LOCALE): string {
  return `${formatCount(count, locale)} ${count === 1 ? one : many}`;
}
