import { DEFAULT_LOCALE, PSEUDO_LOCALE, type CatalogLocale } from '../locales.ts';
import { pseudoText } from './pseudo-text.ts';

// Numbers and durations in a locale, through Intl: for the app's views and the server's own
// words (previews, cards) alike. The locale is always the interface's own (the one its messages
// are in), never the browser's: the server renders the first view, and the client must produce
// the very same text when it hydrates it.

/** A duration split into the units Intl.DurationFormat takes. */
function durationParts(seconds: number): Partial<Record<Intl.DurationFormatUnit, number>> {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  return { hours, minutes, seconds: rest };
}

export interface Formats {
  /** "5,000", "5.000", "5 000": the locale's grouping. */
  formatCount(value: number): string;
  /** "1.2M", "1,2 Mio.", "123.5万": for view counts. */
  formatCompact(value: number): string;
  /** "1 hour, 2 minutes, 3 seconds" in the locale's words, for screen readers; null: live. */
  describeDuration(seconds: number): string;
  /** "416 hr, 40 min", "12 min, 5 sec", "416 時間 40 分": a long total as a person says it. */
  formatLongDuration(seconds: number): string;
  /** A wait the server asked for, in its largest unit, rounded up: "2 minutes". */
  formatWait(seconds: number): string;
}

// Making an Intl formatter costs far more than using one (a list renders hundreds of numbers),
// so each locale gets one set, made on first use.
const formatsByLocale = new Map<string, Formats>();

export function formatsFor(locale: CatalogLocale = DEFAULT_LOCALE): Formats {
  let known = formatsByLocale.get(locale);
  if (!known) {
    // The pseudo-locale formats as English does, its letters accented like its messages': what
    // the formats write then reads as the interface's own, not as text that bypassed it.
    known =
      locale === PSEUDO_LOCALE ? pseudoFormats(intlFormats(DEFAULT_LOCALE)) : intlFormats(locale);
    formatsByLocale.set(locale, known);
  }
  return known;
}

function intlFormats(locale: string): Formats {
  let count: Intl.NumberFormat | undefined;
  let compact: Intl.NumberFormat | undefined;
  let spoken: Intl.DurationFormat | undefined;
  let short: Intl.DurationFormat | undefined;
  const always = new Map<string, Intl.DurationFormat>();
  /** Zero units are left out ("2 minutes"), so a zero needs its seconds shown on purpose. */
  const zero = (style: 'long' | 'short') => {
    let format = always.get(style);
    if (!format) {
      format = new Intl.DurationFormat(locale, { style, secondsDisplay: 'always' });
      always.set(style, format);
    }
    return format.format({ seconds: 0 });
  };
  return {
    formatCount: (value) => (count ??= new Intl.NumberFormat(locale)).format(value),
    formatCompact: (value) =>
      (compact ??= new Intl.NumberFormat(locale, {
        notation: 'compact',
        maximumFractionDigits: 1,
      })).format(value),
    describeDuration: (seconds) => {
      if (seconds < 1) return zero('long');
      spoken ??= new Intl.DurationFormat(locale, { style: 'long' });
      return spoken.format(durationParts(seconds));
    },
    formatLongDuration: (seconds) => {
      const total = Math.max(0, Math.round(seconds));
      if (total === 0) return zero('short');
      const { hours = 0, minutes = 0, seconds: rest = 0 } = durationParts(total);
      short ??= new Intl.DurationFormat(locale, { style: 'short' });
      // Two units are enough: seconds say nothing once it is hours.
      return short.format(hours > 0 ? { hours, minutes } : { minutes, seconds: rest });
    },
    formatWait: (seconds) => {
      spoken ??= new Intl.DurationFormat(locale, { style: 'long' });
      if (seconds < 60) return spoken.format({ seconds: Math.max(0, Math.ceil(seconds)) });
      const minutes = Math.ceil(seconds / 60);
      if (minutes < 60) return spoken.format({ minutes });
      return spoken.format({ hours: Math.ceil(minutes / 60) });
    },
  };
}

function pseudoFormats(formats: Formats): Formats {
  const accented = Object.entries(formats).map(([name, format]) => [
    name,
    (value: number) => pseudoText((format as (value: number) => string)(value)),
  ]);
  return Object.fromEntries(accented) as unknown as Formats;
}

/**
 * Makes the locale's number formats ahead of their first use, each in a task of its own
 * (`nextTask` yields to the browser): the first one made costs a phone tens of milliseconds
 * (the locale's data), which would otherwise fall inside hydration's first slice and make it a
 * long task.
 */
export async function prepareNumberFormats(
  locale: CatalogLocale,
  nextTask: () => Promise<void>,
): Promise<void> {
  const formats = formatsFor(locale);
  await nextTask();
  formats.formatCompact(1);
  await nextTask();
  formats.formatCount(1);
}
