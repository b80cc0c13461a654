import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:chaos`: crash recovery, several processes, dependency faults, the fuzzer and the
// security checks. One seed for the whole run, chosen here (or CHAOS_SEED) so every worker shares it.
process.env.CHAOS_SEED ??= String(Math.floor(Math.random() * 2 ** 31));
process.env.CHAOS_PROFILE ??= 'full';
process.env.CHAOS_REPORT_FILE ??= path.join(os.tmpdir(), `peerpay-chaos-${process.pid}-${Date.now()}.jsonl`);
const jsonReport = process.env.VITEST_JSON;

export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    globalSetup: ['test/chaos/support/global-setup.ts'],
    testTimeout: 15 * 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The process-level tests each run several peerpay processes; one file at a time on two cores.
    maxWorkers: 1,
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
