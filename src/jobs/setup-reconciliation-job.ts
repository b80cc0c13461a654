// Reads back processor-hosted setups that no webhook confirmed; see fiat/setup-reconciliation.ts.
import type { SetupLinks } from '../fiat/setup-links.js';
import type { Job } from './job.js';

const BATCH = 50;

export function createSetupReconciliationJob({ setupLinks }: { setupLinks: SetupLinks }): Job {
  return {
    name: 'setup-reconciliation',
    run: () => setupLinks.reconcile(BATCH),
  };
}
