import { createReadStream } from 'node:fs';
import { appendFile, mkdir, open, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// A job's rows go to disk as they arrive, never into memory whole: `<id>.part` while the job
// runs, appended a page at a time, and renamed to `<id>.result` once complete, which the result
// route serves with ETag and Range. A resumed job first cuts its part file back to the length
// its record says holds whole pages.

export interface JobFiles {
  /** Appends `text` to the job's part file. */
  append(id: string, text: string): Promise<void>;
  /** Cuts the part file to `bytes` (creating it empty when missing). */
  cut(id: string, bytes: number): Promise<void>;
  /** The part file becomes the result. */
  finish(id: string): Promise<void>;
  /** The part file's lines, read back a line at a time (a summary folds them). */
  partLines(id: string): AsyncIterable<string>;
  /** Writes the result whole (a summary's small document). */
  writeResult(id: string, text: string): Promise<void>;
  resultPath(id: string): string;
  /** The result's size, or null when there is none. */
  resultSize(id: string): Promise<number | null>;
  remove(id: string): Promise<void>;
}

export function jobFiles(dir: string): JobFiles {
  const part = (id: string) => join(dir, `${id}.part`);
  const result = (id: string) => join(dir, `${id}.result`);
  // Made when the first job writes, so that a STATE_DIR without jobs holds no empty folder.
  let made: Promise<unknown> | null = null;
  const ready = () => (made ??= mkdir(dir, { recursive: true }));
  return {
    async append(id, text) {
      await ready();
      await appendFile(part(id), text);
    },
    async cut(id, bytes) {
      await ready();
      const file = await open(part(id), 'a');
      await file.close();
      await truncate(part(id), bytes);
    },
    async finish(id) {
      await rename(part(id), result(id));
    },
    async *partLines(id) {
      const lines = createInterface({
        input: createReadStream(part(id), 'utf8'),
        crlfDelay: Infinity,
      });
      for await (const line of lines) if (line !== '') yield line;
    },
    async writeResult(id, text) {
      await ready();
      await appendFile(part(id), '');
      await rm(result(id), { force: true });
      const file = await open(result(id), 'w');
      await file.writeFile(text);
      await file.close();
      await rm(part(id), { force: true });
    },
    resultPath: result,
    async resultSize(id) {
      try {
        return (await stat(result(id))).size;
      } catch {
        return null;
      }
    },
    async remove(id) {
      await rm(part(id), { force: true });
      await rm(result(id), { force: true });
    },
  };
}
