import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../../shared/i18n/catalog-files.ts';
import type { CatalogLocale } from '../../../shared/locales.ts';
import { formatsFor } from '../../lib/format.ts';
import { binDescription, binLabel, durationBins, logBins } from './histogram.ts';

/** A locale's words as `useTranslation()` gives them, from the catalogs as written. */
function words(locale: CatalogLocale) {
  const i18n = setupI18n({ locale, messages: { [locale]: compileCatalog(locale) } });
  return { t: i18n.t, ...formatsFor(locale) };
}

describe('histograms', () => {
  const english = words('en');

  it('bins durations, counting live streams apart', () => {
    const { bins, missing } = durationBins([10, 59, 60, 299, 3600, 9000, null]);
    expect(missing).toBe(1);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 0, 0, 0, 0, 1, 1]);
  });

  it('names duration bins short on the axis and in full for a screen reader', () => {
    const { bins } = durationBins([]);
    expect(bins.map((b) => binLabel(b, english))).toEqual([
      '<1 min',
      '1–5 min',
      '5–10',
      '10–20',
      '20–30',
      '30–60',
      '1–2 h',
      '2 h+',
    ]);
    expect(bins.map((b) => binDescription(b, english))).toEqual([
      'under a minute',
      '1 to 5 minutes',
      '5 to 10 minutes',
      '10 to 20 minutes',
      '20 to 30 minutes',
      '30 to 60 minutes',
      '1 to 2 hours',
      '2 hours or more',
    ]);
  });

  it('bins views by power of ten, zero only when there is one', () => {
    const { bins } = logBins([0, 5, 50, 5000, null]);
    expect(bins.map((b) => [binLabel(b, english), b.count])).toEqual([
      ['0', 1],
      ['1+', 1],
      ['10+', 1],
      ['100+', 0],
      ['1K+', 1],
    ]);
    expect(bins.map((b) => binDescription(b, english))).toEqual([
      'none',
      '1 to 9',
      '10 to 99',
      '100 to 999',
      '1,000 to 9,999',
    ]);
    const million = logBins([1_200_000]).bins.at(-1)!;
    expect(million).toMatchObject({ from: 1_000_000, count: 1 });
    expect(binLabel(million, english)).toBe('1M+');
    expect(logBins([3]).bins.map((b) => binLabel(b, english))).toEqual(['1+']);
  });

  it('writes the numbers of its labels as the locale does', () => {
    const german = words('de');
    const thousands = logBins([5000]).bins.at(-1)!;
    expect(binDescription(thousands, german)).toMatch(/^1\.000 .* 9\.999$/);
    // Every catalog falls back to English words until translated; the numbers are the locale's.
    const japanese = words('ja');
    expect(binLabel(logBins([20_000]).bins.at(-1)!, japanese)).toBe('1万+');
  });
});
