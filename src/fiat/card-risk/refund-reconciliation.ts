// Refunds whose answer never came (DESIGN §11: anything still open after 15 minutes is read back).
// An operator's refund is booked `pending` before the processor is asked; when the call fails
// (the processor away, the process killed), the recipient's money is taken back but the card is
// not yet refunded. This job finds such refunds, reads the charge's refunds at the processor, and:
// - the processor has it (found by peerpay's refund id or its ref): its status is recorded, once,
//   exactly as the processor's webhook would record it (a failure undoes the take-back);
// - the processor has no such refund: it is asked again with the same idempotency key (the
//   refund id), so that a call that did reach it can never make a second refund.
import type { PaymentProcessor } from '../../adapters/processor/payment-processor.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { findTransfer } from '../fiat-transfers-repository.js';
import type { OperatorRefunds } from './operator-refunds.js';
import { applyProcessorRefunds } from './refund-events.js';
import { listPendingRefunds, type Refund } from './refunds-repository.js';

/** How long a refund may stay pending before it is read back: its own request has long given up by then. */
export const REFUND_RECONCILE_AFTER_MS = 15 * 60 * 1000;

export interface RefundReconciliation {
  /** One bounded round; returns how many pending refunds it looked at. */
  reconcile(limit: number, log: { error(details: object, message: string): void }): Promise<number>;
}

export function createRefundReconciliation(deps: {
  db: Db;
  clock: Clock;
  processor: Pick<PaymentProcessor, 'listRefunds'>;
  refunds: Pick<OperatorRefunds, 'carryOn'>;
}): RefundReconciliation {
  async function settle(refund: Refund): Promise<void> {
    const transfer = await findTransfer(deps.db, refund.transferId);
    if (!transfer?.processorRef) return;
    const listed = await deps.processor.listRefunds(transfer.processorRef);
    const reported = listed.find((r) => r.refundId === refund.id || (refund.processorRef !== null && r.refundRef === refund.processorRef));
    if (reported) {
      await deps.db.transaction().execute((trx) => applyProcessorRefunds(trx, { refunds: [reported], now: deps.clock.now() }));
      return;
    }
    // The processor named this refund once but no longer lists it: nothing safe to do but say so.
    if (refund.processorRef !== null) throw new Error(`refund ${refund.id} (${refund.processorRef}) is not listed by the processor`);
    await deps.refunds.carryOn(refund);
  }

  return {
    async reconcile(limit, log) {
      const due = await listPendingRefunds(deps.db, {
        createdBefore: new Date(deps.clock.now().getTime() - REFUND_RECONCILE_AFTER_MS),
        limit,
      });
      for (const refund of due) {
        // One refund the processor cannot answer for now must not hold up the others.
        await settle(refund).catch((error: unknown) =>
          log.error({ refundId: refund.id, err: error }, 'a pending refund could not be reconciled; retried next round'),
        );
      }
      return due.length;
    },
  };
}
