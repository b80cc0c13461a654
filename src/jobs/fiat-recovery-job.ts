// Carries on transfers whose request died while charging; see fiat/transfer-recovery.ts.
import { recoverOrphanedTransfers } from '../fiat/transfer-recovery.js';
import type { Job } from './job.js';

const BATCH = 50;

export const fiatRecoveryJob: Job = {
  name: 'fiat-recovery',
  async run(deps) {
    await deps.sandboxClock?.refresh();
    return recoverOrphanedTransfers(deps, BATCH);
  },
};
