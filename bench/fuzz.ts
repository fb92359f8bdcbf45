import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFuzzTarget } from '../src/test-support/http-fuzz/fuzz-target.ts';
import { formatReport, runFuzz } from '../src/test-support/http-fuzz/run-fuzz.ts';

// `npm run fuzz`: property-based fuzzing of the explorer's HTTP boundary (the explorer on a
// loopback port, in front of the embedded catalogue behind a request counter; see
// src/test-support/http-fuzz/). 10,000 cases by default; `--cases N`, `--seed S` to repeat a
// run, `--path P` (with its seed) to replay the counterexample a failed run printed. Exits 1 on
// a failure. Needs the built app (`npm run build`).

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    path: { type: 'string' },
  },
});

const cases = Number(values.cases);
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (!Number.isInteger(cases) || cases < 1 || (seed !== undefined && !Number.isInteger(seed))) {
  console.error('fuzz: --cases takes a positive integer, --seed an integer.');
  process.exit(2);
}
if (!existsSync('dist/index.html')) {
  console.error('fuzz: build the app first (npm run build).');
  process.exit(2);
}

const target = await startFuzzTarget();
console.log(
  `fuzz: explorer at ${target.url}, ${cases} cases${seed === undefined ? '' : `, seed ${seed}`}`,
);
const step = Math.max(100, Math.ceil(cases / 10));
let report;
try {
  report = await runFuzz(target, {
    cases,
    seed,
    path: values.path,
    onProgress: (done) => {
      if (done % step === 0) console.log(`  ${done} cases…`);
    },
  });
} finally {
  await target.close();
}
console.log(formatReport(report));
process.exit(report.failed ? 1 : 0);
