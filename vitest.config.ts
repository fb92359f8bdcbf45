import { configDefaults, defineConfig } from 'vitest/config';

// Three projects, chosen by a test file's name so that a new test lands in the right one:
// - unit (`*.test.ts`): in-process, no socket, no child process; all of them in well under a
//   minute.
// - integration (`*.integration.test.ts`): starts servers, processes or redis-server, or speaks
//   to them over real sockets. Files share nothing (free ports, their own state folders), so they
//   run side by side, after the unit tests.
// - alone (`*.alone.test.ts`): holds memory or pace to a figure that the integration files'
//   processes on the same two cores would move, so these run last, apart from them. The two
//   run side by side: each measures its own processes, with room to spare on the pace.
// `npm run test:unit` runs the first, `npm run test:integration` the other two; `npx vitest run
// <file>` runs one file of any. STRESS=20 repeats the race-hunting loops (test-support/stress.ts).

const INTEGRATION = ['src/**/*.integration.test.ts', 'bench/**/*.integration.test.ts'];
const ALONE = ['src/**/*.alone.test.ts', 'bench/**/*.alone.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // Vitest's default leaves a core free, which on two cores is one file at a time; and an
    // integration file spends part of its time waiting on the processes it started, so a third
    // file fills those gaps.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...INTEGRATION, ...ALONE],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          // Starting processes, and their requests, take longer on a loaded machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          testTimeout: 300_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
