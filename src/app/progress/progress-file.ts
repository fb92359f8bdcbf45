import { JSON_FORMAT } from '../following/follow-files.ts';
import { writeProgress, type ProgressState } from './progress-store.ts';

// Progress travels in the follow file (this explorer's JSON export) as its own `progress`
// section with its own version, so a follow file without one, or an older explorer that does
// not know it, reads the lists as before.

/** The `progress` section to put beside the lists of the JSON export. */
export function progressSection(state: ProgressState) {
  return writeProgress(state);
}

/** The progress section of an imported file, raw (the store reads each entry on its own). */
export function progressSectionOf(text: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (data === null || typeof data !== 'object') return null;
  const record = data as { format?: unknown; progress?: unknown };
  return record.format === JSON_FORMAT ? (record.progress ?? null) : null;
}
