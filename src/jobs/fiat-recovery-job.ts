// Carries on transfers whose request died while charging; see fiat/transfer-recovery.ts.
import { recoverOrphanedTransfers } from '../fiat/transfer-recovery.js';
import type { JobOver } from './job.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock, SandboxClock } from '../platform/clock.js';

/** What a round of this job uses. */
export type FiatRecoveryJobDeps = { clock: Clock; config: Config; db: Db; processor: PaymentProcessor; sandboxClock: SandboxClock | null };

const BATCH = 50;

export const fiatRecoveryJob: JobOver<FiatRecoveryJobDeps> = {
  name: 'fiat-recovery',
  async run(deps) {
    await deps.sandboxClock?.refresh();
    return recoverOrphanedTransfers(deps, BATCH);
  },
};
