import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzTarget, type FuzzTarget } from '../../test-support/http-fuzz/fuzz-target.ts';
import { formatReport, runFuzz } from '../../test-support/http-fuzz/run-fuzz.ts';

// A short run of `npm run fuzz` (src/test-support/http-fuzz/): a few hundred generated
// requests against a real explorer over HTTP, each held to every property (never a 5xx, /api
// errors are problem documents, no upstream call for invalid input, nothing echoed unescaped,
// nothing served from outside the build), the whole-list routes included (summaries, walks,
// walk costs, exports of the small demo lists mostly). A fresh seed each run, printed when it
// fails.

describe.skipIf(!existsSync('dist/index.html'))('the HTTP boundary, fuzzed', () => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = await startFuzzTarget();
  }, 60_000);
  afterAll(async () => {
    await target.close();
  });

  it('holds every property over 400 generated requests', async () => {
    const report = await runFuzz(target, { cases: 400 });
    if (report.failed || report.known.size > 0) console.log(formatReport(report));
    expect(report.failed, `seed ${report.seed}`).toBe(false);
    expect(report.cases).toBe(400);
    // Known issues (properties.ts) are counted by `npm run fuzz`; here they fail until fixed.
    expect(Object.fromEntries(report.known), `seed ${report.seed}`).toEqual({});
  }, 120_000);
});
