import { defineConfig } from 'vitest/config';

// `npm run bench:latency`: timed tests that measure rather than check (latency of paid requests),
// run on demand, out of `npm test`; the figures are printed.
export default defineConfig({
  test: {
    include: ['bench/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
