// Refunds the processor reports (DESIGN §16): peerpay's own are recognised by their refund id or
// processor ref and only have their status recorded (a failure undoes them once); one that peerpay
// did not make (the dashboard) is booked like an operator's, once per processor ref.
import type { ProcessorRefund } from '../../adapters/processor/payment-processor.js';
import type { Trx } from '../../db/transaction.js';
import { newId } from '../../platform/ids.js';
import { findTransfer, lockTransferByProcessorRef } from '../fiat-transfers-repository.js';
import { bookRefund, failRefund, refundableOf, splitChargeAmount } from './refund-booking.js';
import { lockRefund, updateRefund, type Refund } from './refunds-repository.js';

/** At most this many refunds of one charge are looked at per event. */
const MAX_REFUNDS_PER_EVENT = 100;

export async function applyProcessorRefunds(trx: Trx, input: { refunds: readonly ProcessorRefund[]; now: Date }): Promise<boolean> {
  let changed = false;
  for (const reported of input.refunds.slice(0, MAX_REFUNDS_PER_EVENT)) {
    const known = await lockRefund(trx, { id: reported.refundId, processorRef: reported.refundRef });
    const applied = known ? await recordStatus(trx, known, reported, input.now) : await bookForeignRefund(trx, reported, input.now);
    changed = applied || changed;
  }
  return changed;
}

/** Where one of peerpay's refunds (or one already booked) stands now. */
async function recordStatus(trx: Trx, refund: Refund, reported: ProcessorRefund, now: Date): Promise<boolean> {
  if (reported.status === 'failed') {
    const transfer = await findTransfer(trx, refund.transferId);
    if (!transfer) return false;
    return failRefund(trx, { refund, transfer, now });
  }
  const status = refund.status === 'pending' && reported.status === 'succeeded' ? 'succeeded' : refund.status;
  const learnsRef = refund.processorRef === null;
  if (status === refund.status && !learnsRef) return false;
  await updateRefund(trx, { id: refund.id, status, processorRef: reported.refundRef, now });
  return true;
}

async function bookForeignRefund(trx: Trx, reported: ProcessorRefund, now: Date): Promise<boolean> {
  // A refund that failed before peerpay heard of it never took anything.
  if (reported.status === 'failed') return false;
  const transfer = await lockTransferByProcessorRef(trx, reported.chargeRef);
  if (!transfer || transfer.currency !== reported.currency || transfer.status !== 'completed') return false;
  if (reported.amountMinor <= 0n) return false;
  const { amountMinor, feeMinor } = splitChargeAmount(reported.amountMinor, await refundableOf(trx, transfer));
  return bookRefund(trx, {
    transfer,
    now,
    refund: {
      id: newId('rf'),
      transferId: transfer.id,
      origin: 'processor',
      processorRef: reported.refundRef,
      currency: transfer.currency,
      amountMinor,
      feeMinor,
      status: reported.status,
      reason: 'requested_by_customer',
      note: null,
      idempotencyKey: null,
      requestHash: null,
      undoneAt: null,
      createdAt: now,
    },
  });
}
