// Reads back refunds left pending by a lost answer (fiat/card-risk/refund-reconciliation.ts).
import type { RefundReconciliation } from '../fiat/card-risk/refund-reconciliation.js';
import type { SandboxClock } from '../platform/clock.js';
import type { Job } from './job.js';

const BATCH = 50;

export function createRefundReconciliationJob({
  refundReconciliation,
  sandboxClock,
}: {
  refundReconciliation: RefundReconciliation;
  sandboxClock: SandboxClock | null;
}): Job {
  return {
    name: 'refund-reconciliation',
    async run(log) {
      await sandboxClock?.refresh();
      // Without a logger (a round run by hand), a refund that cannot be reconciled fails the round loudly.
      const report = log ?? {
        error: (details: object, message: string) => {
          throw new Error(`${message}: ${JSON.stringify(details, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
        },
      };
      return refundReconciliation.reconcile(BATCH, report);
    },
  };
}
