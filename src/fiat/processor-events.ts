// Applies what a processor's webhook says happened, once per event id (and the card-risk events once
// per refund or dispute too, whatever their order) and in one transaction with its effect: the
// event's record and the change it makes commit together or not at all, so a repeated delivery
// changes nothing and a crash part-way leaves the event to be delivered again.
// Events may come late, twice or out of order: each change is conditional on the state it leaves,
// so an event about something already recorded (by the request, the settlement job or an earlier
// event) is a no-op.
import type { Trx } from '../db/transaction.js';
import type { ProcessorEvent } from '../adapters/processor/payment-processor.js';
import { cardHoldOf, creditTransfer } from './fiat-ledger.js';
import { changeStatus, lockTransfer } from './fiat-transfers-repository.js';
import { settlePendingTransfer } from './ach-settlement.js';
import { recordProcessorEvent } from './processor-events-repository.js';
import { recordPayoutAccountReady, recordSetupCompleted } from './processor-setups.js';
import { recordTransferEvents } from './transfer-events.js';
import { applyProcessorRefunds } from './card-risk/refund-events.js';
import { applyDispute } from './card-risk/dispute-booking.js';
import { applyEarlyFraudWarning } from './card-risk/fraud-warnings.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export type EventOutcome = 'applied' | 'no_change' | 'duplicate' | 'ignored';

export async function applyProcessorEvent(deps: { db: Db; clock: Clock; config: Config }, event: ProcessorEvent): Promise<EventOutcome> {
  // A malformed event is logged by whoever read it; nothing of it can be applied.
  if (event.kind === 'ignored' || event.kind === 'malformed') return 'ignored';
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    if (!(await recordProcessorEvent(trx, { id: event.eventId, type: event.type, now }))) return 'duplicate';
    return (await applyChange(trx, event, { now, holdMs: deps.config.fiatHoldMs })) ? 'applied' : 'no_change';
  });
}

async function applyChange(
  trx: Trx,
  event: Exclude<ProcessorEvent, { kind: 'ignored' | 'malformed' }>,
  { now, holdMs }: { now: Date; holdMs: number },
): Promise<boolean> {
  switch (event.kind) {
    case 'setup_completed':
      return recordSetupCompleted(trx, { sessionRef: event.sessionRef, instrumentRef: event.instrumentRef, now });
    case 'payout_account_ready':
      return recordPayoutAccountReady(trx, { payoutAccountRef: event.payoutAccountRef, now });
    case 'charge_succeeded':
      return recordCharge(trx, { transferId: event.transferId, chargeRef: event.chargeRef, succeeded: true, now, holdMs });
    case 'charge_failed':
      return recordCharge(trx, {
        transferId: event.transferId,
        chargeRef: event.chargeRef,
        succeeded: false,
        failureCode: event.failureCode,
        now,
        holdMs,
      });
    case 'refunds_changed':
      return applyProcessorRefunds(trx, { refunds: event.refunds, now });
    case 'dispute_changed':
      return applyDispute(trx, event.dispute, now);
    case 'early_fraud_warning':
      return applyEarlyFraudWarning(trx, { warningRef: event.warningRef, chargeRef: event.chargeRef, now });
  }
}

/**
 * A charge or bank debit ended. A transfer still `processing` (the webhook overtook the request that
 * asked, or that request died) is recorded as the request would have; a `pending` bank debit settles
 * or is returned; anything else has been recorded already.
 */
async function recordCharge(
  trx: Trx,
  input: { transferId: string; chargeRef: string; succeeded: boolean; failureCode?: string; now: Date; holdMs: number },
): Promise<boolean> {
  const transfer = await lockTransfer(trx, input.transferId);
  // Another charge than the one this transfer recorded cannot be this transfer's money.
  if (!transfer || (transfer.processorRef !== null && transfer.processorRef !== input.chargeRef)) return false;
  if (transfer.status === 'pending') return settlePendingTransfer(trx, { id: transfer.id, settled: input.succeeded, now: input.now });
  if (transfer.status !== 'processing') return false;
  const changed = await changeStatus(trx, {
    id: transfer.id,
    from: 'processing',
    to: input.succeeded ? 'completed' : 'failed',
    processorRef: input.chargeRef,
    failureCode: input.succeeded ? null : (input.failureCode ?? 'card_declined'),
    completedAt: input.succeeded ? input.now : null,
  });
  if (!changed) return false;
  if (input.succeeded) await creditTransfer(trx, changed, 'posted', cardHoldOf(changed, input.holdMs, input.now));
  await recordTransferEvents(trx, { transfer: changed, from: 'processing', now: input.now });
  return true;
}

/** The processor's events, applied (DESIGN §21): built once over what applying them uses. */
export interface ProcessorEvents {
  apply(event: ProcessorEvent): Promise<EventOutcome>;
}

export function createProcessorEvents(deps: { db: Db; clock: Clock; config: Config }): ProcessorEvents {
  return { apply: (event) => applyProcessorEvent(deps, event) };
}
