import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_ID_PATTERN,
  PLAYLIST_ID_PATTERN,
  VIDEO_ID_PATTERN,
} from '../shared/id-patterns.ts';
import { generateDemoCatalogue } from './demo-data.ts';
import { BIG_CHANNEL_PLAYLISTS, BIG_CHANNEL_VIDEOS, FIXTURE_IDS } from './demo-fixtures.ts';
import { agoText, lastUpdatedText, snippet, viewsText } from './display-text.ts';
import { createContinuationCodec, continuationPlace } from './continuation.ts';
import { latencyFor, NO_FAULTS, parseFaultSpec } from './fault-settings.ts';
import { thumbnailSvg } from './thumbnail-art.ts';

const fingerprint = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('the demo catalogue', () => {
  const catalogue = generateDemoCatalogue();

  it('is the same on every run (seeded, no Math.random)', () => {
    expect(fingerprint(generateDemoCatalogue())).toBe(fingerprint(catalogue));
    expect(fingerprint(generateDemoCatalogue(7))).not.toBe(fingerprint(catalogue));
  });

  it('has a few hundred channels and playlists with real ID shapes', () => {
    expect(catalogue.channels.length).toBeGreaterThan(300);
    expect(catalogue.playlists.length).toBeGreaterThan(500);
    expect(catalogue.channels.every((c) => CHANNEL_ID_PATTERN.test(c.id))).toBe(true);
    expect(catalogue.playlists.every((p) => PLAYLIST_ID_PATTERN.test(p.id))).toBe(true);
    expect(catalogue.videos.every((v) => VIDEO_ID_PATTERN.test(v.id))).toBe(true);
    expect(new Set(catalogue.videos.map((v) => v.id)).size).toBe(catalogue.videos.length);
  });

  it('holds the fixtures', () => {
    const ownedBy = (id: string) => catalogue.videos.filter((v) => v.channelId === id).length;
    expect(ownedBy(FIXTURE_IDS.bigChannel)).toBe(BIG_CHANNEL_VIDEOS);
    expect(catalogue.playlists.filter((p) => p.channelId === FIXTURE_IDS.bigChannel)).toHaveLength(
      BIG_CHANNEL_PLAYLISTS,
    );
    expect(
      catalogue.playlists.filter((p) => p.channelId === FIXTURE_IDS.smallChannel),
    ).toHaveLength(0);
  });

  it('looks like a real catalogue: non-Latin scripts, emoji, seconds to hours, heavy-tailed views', () => {
    const titles = catalogue.videos.map((v) => v.title).join('\n');
    for (const script of [
      /\p{Script=Han}/u,
      /\p{Script=Hangul}/u,
      /\p{Script=Arabic}/u,
      /\p{Script=Cyrillic}/u,
      /\p{Extended_Pictographic}/u,
    ]) {
      expect(titles).toMatch(script);
    }
    const durations = catalogue.videos.map((v) => v.duration);
    expect(durations.some((d) => d !== null && d < 60)).toBe(true);
    expect(durations.some((d) => d !== null && d > 3 * 3600)).toBe(true);
    expect(durations.some((d) => d === null)).toBe(true);
    const views = catalogue.videos.map((v) => v.viewCount).sort((a, b) => a - b);
    const median = views[Math.floor(views.length / 2)] ?? 0;
    expect(views.at(-1)).toBeGreaterThan(median * 1000);
  });
});

describe('the demo’s thumbnail art', () => {
  it('is drawn from the ID: the same on every run, its colours differing between IDs', () => {
    const { videos, playlists } = generateDemoCatalogue();
    const art = videos.slice(0, 50).map((v) => thumbnailSvg('vi', v.id, 336, 188));
    expect(art).toEqual(videos.slice(0, 50).map((v) => thumbnailSvg('vi', v.id, 336, 188)));
    const colours = (svg: string) => svg.match(/stop-color="[^"]+"/g)?.join();
    expect(new Set(art.map(colours)).size).toBeGreaterThan(40);
    // A playlist's carries the stack stripe; a video's the play mark.
    expect(thumbnailSvg('pl', playlists[0]!.id, 336, 188)).not.toContain('<path');
    expect(art[0]).toContain('<path');
  });
});

describe('display strings', () => {
  const now = Date.UTC(2026, 10, 1);
  const ago = (seconds: number) => now / 1000 - seconds;

  it('writes view counts as the platform does', () => {
    expect([0, 1, 999, 1234, 1_250_000, 3_400_000_000].map(viewsText)).toEqual([
      'No views',
      '1 view',
      '999 views',
      '1.2K views',
      '1.3M views',
      '3.4B views',
    ]);
  });

  it('writes ages and updates', () => {
    expect(agoText(ago(30), now)).toBe('just now');
    expect(agoText(ago(3600), now)).toBe('1 hour ago');
    expect(agoText(ago(3 * 365 * 86400 + 5), now)).toBe('3 years ago');
    expect(lastUpdatedText(ago(3600), now)).toBe('Updated today');
    expect(lastUpdatedText(ago(2 * 86400), now)).toBe('Updated 2 days ago');
  });

  it('cuts snippets at a word', () => {
    expect(snippet('short')).toBe('short');
    const cut = snippet('word '.repeat(60));
    expect(cut.length).toBeLessThanOrEqual(121);
    expect(cut.endsWith('word…')).toBe(true);
  });
});

describe('fault specs', () => {
  it('reads the environment form', () => {
    expect(parseFaultSpec('latency=200, 500=0.1,429=0.05,malformed=0.02,retry-after=3')).toEqual({
      latencyMs: 200,
      error500Rate: 0.1,
      rate429Rate: 0.05,
      malformedRate: 0.02,
      retryAfterSeconds: 3,
    });
    expect(parseFaultSpec('')).toEqual({});
  });

  it('reads a latency range and its seed', () => {
    expect(parseFaultSpec('latency=80-250,latency-seed=7')).toEqual({
      latencyMs: 80,
      latencyMaxMs: 250,
      latencySeed: 7,
    });
    expect(() => parseFaultSpec('latency=250-80')).toThrow(/high to low/);
    expect(() => parseFaultSpec('latency=80-')).toThrow(/cannot read/);
  });

  it('refuses what it cannot read', () => {
    expect(() => parseFaultSpec('latency')).toThrow(/cannot read/);
    expect(() => parseFaultSpec('teapot=1')).toThrow(/cannot read/);
    expect(() => parseFaultSpec('500=2')).toThrow();
  });
});

describe('latency ranges', () => {
  const settings = { ...NO_FAULTS, latencyMs: 80, latencyMaxMs: 250, latencySeed: 1 };
  const pages = Array.from({ length: 400 }, (_, n) => `playlist PLx {"k":[${n * 100}]}`);

  it('give each page a wait of its own within the range, the same every time', () => {
    const waits = pages.map((page) => latencyFor(settings, page));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(80);
    expect(Math.max(...waits)).toBeLessThanOrEqual(250);
    // Spread over the range, not bunched: the mean near its middle, both ends reached.
    const mean = waits.reduce((sum, w) => sum + w, 0) / waits.length;
    expect(Math.abs(mean - 165)).toBeLessThan(10);
    expect(Math.min(...waits)).toBeLessThan(90);
    expect(Math.max(...waits)).toBeGreaterThan(240);
    expect(pages.map((page) => latencyFor(settings, page))).toEqual(waits);
    // Another seed, other waits; a fixed latency stays fixed.
    const reseeded = pages.map((page) => latencyFor({ ...settings, latencySeed: 2 }, page));
    expect(reseeded).not.toEqual(waits);
    expect(latencyFor({ ...settings, latencyMaxMs: null }, pages[0]!)).toBe(80);
  });

  it('key a page by its place, whatever key signed its continuation', () => {
    const one = createContinuationCodec('one key').encode('playlist', 'PLx', [2000]);
    const other = createContinuationCodec('another key').encode('playlist', 'PLx', [2000]);
    expect(one).not.toBe(other);
    expect(continuationPlace(one)).toBe(continuationPlace(other));
    expect(continuationPlace('not one of ours')).toBe('not one of ours');
  });
});
