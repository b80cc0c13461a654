import { defineConfig } from 'vitest/config';

// VITEST_JSON names a file for a machine-readable report (CI sums the counts of both databases).
const jsonReport = process.env.VITEST_JSON;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The chaos suite has its own command and bounds (vitest.chaos.config.ts).
    exclude: ['test/chaos/**', '**/node_modules/**'],
    // Once per run: the migrated database template and one embedded chain per worker slot.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two test files at a time keeps the PGlite and PostgreSQL runs steady.
    maxWorkers: 2,
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
