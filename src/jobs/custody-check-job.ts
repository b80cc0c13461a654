// Books against custody (books/custody-check.ts): at most once a minute across all processes, on
// the chain jobs' tick; a shortfall is an error log, custody_checks (readiness) and a metric.
import type { CustodyChecks } from '../books/custody-checks.js';
import type { Job } from './job.js';

/** How old the last check may be before the next one runs. */
export const CUSTODY_CHECK_INTERVAL_MS = 60_000;

export function createCustodyCheckJob({ custody }: { custody: CustodyChecks }): Job {
  return {
    name: 'custody-check',
    chain: true,
    run: (log) => custody.checkIfDue({ intervalMs: CUSTODY_CHECK_INTERVAL_MS, ...(log ? { log } : {}) }),
  };
}
