import { configDefaults, defineConfig } from 'vitest/config';

// Two projects, chosen by a test file's name so that a new test lands in the right one:
// `*.integration.test.ts` for tests that start processes (`node src/server/index.ts`, replicas,
// redis-server) or speak to them over real sockets; every other test is a unit test, in-process.
// `npm run test:unit` and `npm run test:integration` run one each; `npx vitest run <file>` runs
// a file of either.

const INTEGRATION = ['src/**/*.integration.test.ts', 'bench/**/*.integration.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...INTEGRATION],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          // One file at a time: these start several processes each, and some hold timings or
          // memory to a figure that a second file's processes on the same two cores would move.
          fileParallelism: false,
          // Starting processes, and their requests, take longer on a loaded machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
