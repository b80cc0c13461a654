// Reads back refunds left pending by a lost answer (fiat/card-risk/refund-reconciliation.ts).
import { createOperatorRefunds } from '../fiat/card-risk/operator-refunds.js';
import { createRefundReconciliation } from '../fiat/card-risk/refund-reconciliation.js';
import type { JobOver } from './job.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Db } from '../db/database.js';
import type { Clock, SandboxClock } from '../platform/clock.js';

/** What a round of this job uses. */
export type RefundReconciliationJobDeps = { clock: Clock; db: Db; processor: PaymentProcessor; sandboxClock: SandboxClock | null };

const BATCH = 50;

export const refundReconciliationJob: JobOver<RefundReconciliationJobDeps> = {
  name: 'refund-reconciliation',
  async run(deps, log) {
    await deps.sandboxClock?.refresh();
    const { db, clock, processor } = deps;
    const refunds = createOperatorRefunds({ db, clock, processor });
    // Without a logger (a round run by hand), a refund that cannot be reconciled fails the round loudly.
    const report = log ?? {
      error: (details: object, message: string) => {
        throw new Error(`${message}: ${JSON.stringify(details, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
      },
    };
    return createRefundReconciliation({ db, clock, processor, refunds }).reconcile(BATCH, report);
  },
};
