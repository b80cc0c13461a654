import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js';
import { DATABASE_INDEPENDENT_FILES } from './test/database-independent-files.js';

// VITEST_JSON names a file for a machine-readable report (CI sums the counts of both databases).
const jsonReport = process.env.VITEST_JSON;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The chaos suite has its own command and bounds (vitest.chaos.config.ts). CI's PostgreSQL pass
    // leaves what does not depend on the database to the PGlite pass (test/database-independent-files.ts).
    exclude: ['test/chaos/**', '**/node_modules/**', ...(process.env.TEST_PASS === 'postgres' ? DATABASE_INDEPENDENT_FILES : [])],
    // Once per run: the migrated database template and one embedded chain per worker slot.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One process per worker for all its files, not one per file: peerpay's modules, PGlite and the
    // libraries load once per worker instead of once per file. Each file still gets its own
    // database and a fresh chain (test/helpers), and closes what it starts.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    // Two cores: two test files at a time keeps the PGlite and PostgreSQL runs steady.
    maxWorkers: 2,
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
