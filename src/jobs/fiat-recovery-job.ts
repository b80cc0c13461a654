// Carries on transfers whose request died while charging; see fiat/transfer-recovery.ts.
import type { FiatTransfers } from '../fiat/fiat-transfers.js';
import type { SandboxClock } from '../platform/clock.js';
import type { Job } from './job.js';

const BATCH = 50;

export function createFiatRecoveryJob({
  fiatTransfers,
  sandboxClock,
}: {
  fiatTransfers: FiatTransfers;
  sandboxClock: SandboxClock | null;
}): Job {
  return {
    name: 'fiat-recovery',
    async run() {
      await sandboxClock?.refresh();
      return fiatTransfers.recoverOrphaned(BATCH);
    },
  };
}
