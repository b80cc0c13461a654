// Reads back processor-hosted setups that no webhook confirmed; see fiat/setup-reconciliation.ts.
import { reconcileSetups } from '../fiat/setup-reconciliation.js';
import type { JobOver } from './job.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** What a round of this job uses. */
export type SetupReconciliationJobDeps = { clock: Clock; db: Db; processor: PaymentProcessor };

const BATCH = 50;

export const setupReconciliationJob: JobOver<SetupReconciliationJobDeps> = {
  name: 'setup-reconciliation',
  run: (deps) => reconcileSetups(deps, BATCH),
};
