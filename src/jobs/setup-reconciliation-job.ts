// Reads back processor-hosted setups that no webhook confirmed; see fiat/setup-reconciliation.ts.
import { reconcileSetups } from '../fiat/setup-reconciliation.js';
import type { Job } from './job.js';

const BATCH = 50;

export const setupReconciliationJob: Job = {
  name: 'setup-reconciliation',
  run: (deps) => reconcileSetups(deps, BATCH),
};
