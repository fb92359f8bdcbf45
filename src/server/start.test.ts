import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_SERVER, staleBuild } from './start.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('npm start builds only when the build is missing or stale', () => {
  it('builds a checkout never built', () => {
    const root = mkdtempSync(join(tmpdir(), 'start-'));
    roots.push(root);
    expect(staleBuild(root)).toBe('no build yet');
  });

  it('runs a build newer than every source, and rebuilds after a source changes', () => {
    const root = mkdtempSync(join(tmpdir(), 'start-'));
    roots.push(root);
    const write = (path: string, seconds: number) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), '');
      utimesSync(join(root, path), seconds, seconds);
    };
    write('src/server/index.ts', 1_000);
    write('package.json', 1_000);
    write(BUILT_SERVER, 2_000);
    expect(staleBuild(root)).toBeNull();
    // A test is not read by the build.
    write('src/server/index.test.ts', 3_000);
    expect(staleBuild(root)).toBeNull();
    write('src/app/view.tsx', 3_000);
    expect(staleBuild(root)).toBe('src changed since the last build');
    write(BUILT_SERVER, 4_000);
    write('package-lock.json', 5_000);
    expect(staleBuild(root)).toBe('package-lock.json changed since the last build');
  });
});
