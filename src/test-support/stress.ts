// How many times a test's race-hunting loop runs: once by default, so that `npm test` pays for
// each guarantee once; `STRESS=20 npx vitest run <file>` repeats it to hunt a race, and CI does
// so for the test files a change touches (`npm run test:stress`).

const asked = Number(process.env.STRESS ?? '1');
export const STRESS_RUNS = Number.isInteger(asked) && asked >= 1 ? asked : 1;
