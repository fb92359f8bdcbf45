import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// For tests and benchmarks only: the memory of a server running as a child process, measured
// the same way every time. Resident memory alone is a poor gauge: V8 grows its heap ahead of
// need and gives it back late, so two readings of the same live data can differ by tens of
// megabytes. What the process really holds is its live heap plus the memory outside the heap
// (Buffers) right after a full collection, and only the process itself can collect and read
// that. So the child is started with this file preloaded (`childMemoryArgs`): on SIGUSR2 it
// collects twice and writes one line with its figures to stderr, which `readChildMemory`
// waits for. SIGUSR2 is free in Node (SIGUSR1 belongs to the inspector).

export const MEMORY_LINE_PREFIX = 'memory-probe ';

export interface ChildMemory {
  /** Resident set size, bytes. */
  rss: number;
  /** What V8 has reserved for its heap: the live heap and the room it keeps to grow in. */
  heapTotal: number;
  /** Live JavaScript heap after a full collection, bytes. */
  heapUsed: number;
  /** Memory held outside the heap by JavaScript objects (Buffers included), bytes. */
  external: number;
  /** What the process holds after a full collection: heapUsed + external. */
  live: number;
}

/** Node arguments that preload the probe; place them before the script. */
export function childMemoryArgs(): string[] {
  return ['--expose-gc', '--import', fileURLToPath(import.meta.url)];
}

/**
 * One of a process's memory figures from /proc/PID/status, bytes (Linux): `VmRSS` its resident
 * set, `RssAnon` and `RssFile` the parts of it that are its own and that map files. Null where
 * there is no /proc.
 */
export function statusBytes(
  pid: number,
  field: 'VmRSS' | 'RssAnon' | 'RssFile' = 'VmRSS',
): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** Resident set size of a process, bytes; null where there is no /proc. */
export const residentBytes = (pid: number): number | null => statusBytes(pid, 'VmRSS');

/** Resident set size of a process, bytes, for a check that cannot be made without /proc. */
export function requireResidentBytes(pid: number): number {
  const bytes = residentBytes(pid);
  if (bytes === null) throw new Error(`no resident memory for ${pid}: this check needs /proc`);
  return bytes;
}

/**
 * Asks a child started with `childMemoryArgs` for its memory after a full collection. The
 * child's stderr must be piped; other output on it is left alone.
 */
export function readChildMemory(child: ChildProcess, timeoutMs = 10_000): Promise<ChildMemory> {
  const stderr = child.stderr;
  if (stderr === null) return Promise.reject(new Error('the child has no piped stderr'));
  return new Promise((resolve, reject) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const line = lines.find((l) => l.startsWith(MEMORY_LINE_PREFIX));
      if (line === undefined) return;
      done();
      resolve(JSON.parse(line.slice(MEMORY_LINE_PREFIX.length)) as ChildMemory);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no memory reading from the child within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      stderr.off('data', onData);
    };
    stderr.on('data', onData);
    child.kill('SIGUSR2');
  });
}

// In the child: answer SIGUSR2. Importing this module from a parent only to call the helpers
// above must not install the handler there, hence the check for the flag the child runs with.
const collect = (globalThis as { gc?: () => void }).gc;
if (collect !== undefined && process.execArgv.some((arg) => arg.includes('memory-probe'))) {
  process.on('SIGUSR2', () => {
    // Twice: the first pass may only finish what was pending (weak references, finalizers).
    collect();
    collect();
    const { rss, heapUsed, external, heapTotal } = process.memoryUsage();
    const reading: ChildMemory = { rss, heapTotal, heapUsed, external, live: heapUsed + external };
    process.stderr.write(`${MEMORY_LINE_PREFIX}${JSON.stringify(reading)}\n`);
  });
}
