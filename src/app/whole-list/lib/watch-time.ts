import { formatsFor } from '../../../shared/i18n/formats.ts';
import type { CatalogLocale } from '../../../shared/locales.ts';

// How long watching takes, as the panel's total says it: a long duration in the reader's
// words, and the playback speeds it is given at (the rest of the app's formatting is
// src/app/lib/format.ts).

/** "416 hr, 40 min", "12 min, 5 sec", "416 時間 40 分": a long duration as a person says it. */
export function formatLongDuration(seconds: number, locale: CatalogLocale): string {
  return formatsFor(locale).formatLongDuration(seconds);
}

export const SPEEDS = [1, 1.25, 1.5, 1.75, 2] as const;
