// Pays received fiat money out to connected payout accounts; see fiat/payout-service.ts.
import { sendPayouts, startPayouts } from '../fiat/payout-service.js';
import type { JobOver } from './job.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Db } from '../db/database.js';
import type { Clock, SandboxClock } from '../platform/clock.js';

/** What a round of this job uses. */
export type PayoutJobDeps = { clock: Clock; db: Db; limits: AccountLimits; processor: PaymentProcessor; sandboxClock: SandboxClock | null };

const BATCH = 100;

export const payoutJob: JobOver<PayoutJobDeps> = {
  name: 'payouts',
  async run(deps) {
    await deps.sandboxClock?.refresh();
    const started = await startPayouts(deps, BATCH);
    const sent = await sendPayouts(deps, BATCH);
    return started + sent;
  },
};
