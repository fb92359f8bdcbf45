import { describe, expect, it } from 'vitest';
import {
  acceptedLanguages,
  chooseLocale,
  directionOf,
  LOCALES,
  LOCALE_NAMES,
  matchLocale,
} from './locales.ts';

describe('a language tag', () => {
  it('names a supported locale exactly, in any case, or by its language', () => {
    expect(matchLocale('ja')).toBe('ja');
    expect(matchLocale('PT-br')).toBe('pt-BR');
    expect(matchLocale('pt-PT')).toBe('pt-BR');
    expect(matchLocale('pt')).toBe('pt-BR');
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('zh')).toBe('zh-CN');
    expect(matchLocale('zh-Hans-CN')).toBe('zh-CN');
    expect(matchLocale('ar-EG')).toBe('ar');
  });

  it('tells the two Chinese locales apart by script first, then by region', () => {
    for (const tag of ['zh-TW', 'zh-tw', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-TW', 'zh-Hant-HK'])
      expect(matchLocale(tag), tag).toBe('zh-TW');
    // The script outweighs the region: a reader who asks for Traditional in China gets it.
    expect(matchLocale('zh-Hant-CN')).toBe('zh-TW');
    for (const tag of ['zh', 'zh-CN', 'zh-SG', 'zh-MY', 'zh-Hans', 'zh-Hans-CN', 'zh-Hans-HK'])
      expect(matchLocale(tag), tag).toBe('zh-CN');
    // An extended language subtag comes before the script; an extension says nothing.
    expect(matchLocale('zh-cmn-Hant-TW')).toBe('zh-TW');
    expect(matchLocale('zh-u-nu-hant')).toBe('zh-CN');
    expect(matchLocale('zh-TW-x-private')).toBe('zh-TW');
  });

  it('names nothing when it is unknown or malformed', () => {
    for (const tag of [
      'xx',
      'he',
      '',
      '*',
      'en_US',
      'ja;q=1',
      '../../etc',
      'a'.repeat(40),
      '日本語',
    ])
      expect(matchLocale(tag)).toBeUndefined();
    expect(matchLocale(null)).toBeUndefined();
  });
});

describe('Accept-Language', () => {
  it('is read by weight, then by order, without the refused and the malformed', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      'fr-CH',
      'fr',
      'en',
      'de',
    ]);
    expect(acceptedLanguages('de;q=0.5, ja, ko;q=0')).toEqual(['ja', 'de']);
    expect(acceptedLanguages(';;, ,q=1, en;q=abc')).toEqual(['q=1', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('choosing a request’s language', () => {
  it('takes ?hl= first, then the remembered choice, then the header, then English', () => {
    expect(chooseLocale({ hl: 'ar', remembered: 'ja', acceptLanguage: 'de' })).toEqual({
      locale: 'ar',
      negotiated: false,
    });
    expect(chooseLocale({ hl: 'klingon', remembered: 'ja', acceptLanguage: 'de' })).toEqual({
      locale: 'ja',
      negotiated: false,
    });
    expect(chooseLocale({ acceptLanguage: 'xx, tr-TR;q=0.8, de;q=0.5' })).toEqual({
      locale: 'tr',
      negotiated: true,
    });
    expect(chooseLocale({ acceptLanguage: 'xx;q=1, %%%' })).toEqual({
      locale: 'en',
      negotiated: true,
    });
    expect(chooseLocale({})).toEqual({ locale: 'en', negotiated: true });
  });

  it('gives Traditional Chinese readers zh-TW and Simplified ones zh-CN', () => {
    const negotiated = (acceptLanguage: string) => chooseLocale({ acceptLanguage }).locale;
    expect(negotiated('zh-HK, zh;q=0.9, en;q=0.8')).toBe('zh-TW');
    expect(negotiated('zh-Hant-TW, zh-Hant;q=0.9, en;q=0.5')).toBe('zh-TW');
    expect(negotiated('zh-MO')).toBe('zh-TW');
    expect(negotiated('zh-SG, en;q=0.8')).toBe('zh-CN');
    expect(negotiated('zh')).toBe('zh-CN');
    expect(chooseLocale({ hl: 'zh-tw' })).toEqual({ locale: 'zh-TW', negotiated: false });
  });

  it('knows the direction and the own name of every locale', () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(13);
    for (const locale of LOCALES) {
      expect(LOCALE_NAMES[locale]).toBeTruthy();
      expect(directionOf(locale)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    }
  });
});
