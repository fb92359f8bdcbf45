import { appendFileSync, closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { appendFile, mkdir, open, readFile, rename, rm, stat, truncate } from 'node:fs/promises';
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
  /** Keeps the page just read aside, in place of the last (job-store.ts `stash`). */
  stash(id: string, continuation: string, body: Buffer): Promise<void>;
  /** The page kept aside, if it was written whole. */
  stashed(id: string): Promise<{ continuation: string; body: Buffer } | null>;
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
  const ahead = (id: string) => join(dir, `${id}.ahead`);
  /** The open descriptors of the jobs' pages kept aside. */
  const aside = new Map<string, number>();
  const dropAside = async (id: string) => {
    const fd = aside.get(id);
    aside.delete(id);
    if (fd !== undefined) closeSync(fd);
    await rm(ahead(id), { force: true });
  };
  // Made when the first job writes, so that a STATE_DIR without jobs holds no empty folder.
  let made: Promise<unknown> | null = null;
  const ready = () => (made ??= mkdir(dir, { recursive: true }));
  return {
    async append(id, text) {
      await ready();
      // Written at once rather than through libuv's thread pool: a page's rows go to the OS's
      // page cache faster than the pool's round trip, which would sit on the job's path from
      // one page to the next.
      appendFileSync(part(id), text);
    },
    async cut(id, bytes) {
      await ready();
      const file = await open(part(id), 'a');
      await file.close();
      await truncate(part(id), bytes);
    },
    async finish(id) {
      await rename(part(id), result(id));
      await dropAside(id);
    },
    async stash(id, continuation, body) {
      await ready();
      // Written over the last in place, through a descriptor kept open: truncating and
      // rewriting the file each page slowed the job's pace measurably.
      // The first line says the body's length, so a shorter page leaves no tail of the last.
      let fd = aside.get(id);
      if (fd === undefined) aside.set(id, (fd = openSync(ahead(id), 'w')));
      const page = Buffer.concat([Buffer.from(`${body.length} ${continuation}\n`), body]);
      writeSync(fd, page, 0, page.length, 0);
    },
    async stashed(id) {
      let text: Buffer;
      try {
        text = await readFile(ahead(id));
      } catch {
        return null;
      }
      const line = text.indexOf(10);
      const [length = '', continuation = ''] = text.subarray(0, line).toString('utf8').split(' ');
      const body = text.subarray(line + 1, line + 1 + Number(length));
      try {
        // A file cut short by a crash is no page.
        if (body.length !== Number(length)) return null;
        JSON.parse(body.toString('utf8'));
      } catch {
        return null;
      }
      return { continuation, body };
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
      await dropAside(id);
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
      await dropAside(id);
      await rm(result(id), { force: true });
    },
  };
}
