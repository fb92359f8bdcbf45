// How long watching takes, as the panel's total says it: a long duration in words, and the
// playback speeds it is given at (the rest of the app's formatting is src/app/lib/format.ts).

/** "416 h 40 min", "12 min 5 s", "45 s": a long duration as a person says it. */
export function formatLongDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h.toLocaleString('en')} h ${m} min`;
  if (m > 0) return `${m} min ${s} s`;
  return `${s} s`;
}

/** 1.25 → "1.25×". */
export function formatSpeed(speed: number): string {
  return `${speed}×`;
}

export const SPEEDS = [1, 1.25, 1.5, 1.75, 2] as const;
