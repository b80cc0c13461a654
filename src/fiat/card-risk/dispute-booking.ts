// Disputes (DESIGN §16), applied once per dispute whatever the order or repetition of its events:
// the first event that names a dispute opens it (the recipient's part taken back by the take-back
// rule, the fee from the platform, the processor's dispute fee to losses); an event that says it
// is closed closes it once (won: everything taken back is returned, repaying owed first; lost: it
// stays with the platform). A `closed` that arrives before its `created` does both.
import { recordEvents } from '../../events/record-event.js';
import type { TransferInput } from '../../ledger/ledger.js';
import type { Trx } from '../../db/transaction.js';
import { applyOperation } from '../../ledger/ledger.js';
import { platformAccount, someFeeShard } from '../../ledger/ledger-accounts.js';
import type { ProcessorDispute } from '../../adapters/processor/payment-processor.js';
import { newId } from '../../platform/ids.js';
import { lockTransferByProcessorRef } from '../fiat-transfers-repository.js';
import { presentDispute } from './card-risk-views.js';
import { feeGiveBack } from './fee-give-back.js';
import { insertDispute, lockDispute, updateDispute, type Dispute } from './disputes-repository.js';
import { refundableOf, splitChargeAmount } from './refund-booking.js';
import { receive, takeBack } from './take-back.js';

/** Applies what the processor says of a dispute; false when it changes nothing (or names no transfer of peerpay's). */
export async function applyDispute(trx: Trx, event: ProcessorDispute, now: Date): Promise<boolean> {
  let dispute: Dispute | null | undefined = await lockDispute(trx, event.disputeRef);
  let changed = false;
  if (!dispute) {
    dispute = await openDispute(trx, event, now);
    if (!dispute) return false;
    changed = true;
  }
  if (event.feeMinor !== null && event.feeMinor > dispute.disputeFeeMinor) {
    dispute = await bookDisputeFee(trx, dispute, event.feeMinor);
    changed = true;
  }
  if (event.status !== 'open' && dispute.status === 'open') {
    await closeDispute(trx, dispute, event.status, now);
    changed = true;
  }
  return changed;
}

async function openDispute(trx: Trx, event: ProcessorDispute, now: Date): Promise<Dispute | null> {
  const transfer = await lockTransferByProcessorRef(trx, event.chargeRef);
  if (!transfer || transfer.currency !== event.currency) return null;
  // Another delivery of this dispute's events may have opened it while this one waited for the lock.
  const opened = await lockDispute(trx, event.disputeRef);
  if (opened) return opened;
  const { amountMinor, feeMinor } = splitChargeAmount(event.amountMinor, await refundableOf(trx, transfer));
  const dispute: Dispute = {
    id: newId('dp'),
    processorRef: event.disputeRef,
    transferId: transfer.id,
    senderAccountId: transfer.senderAccountId,
    recipientAccountId: transfer.recipientAccountId,
    currency: transfer.currency,
    amountMinor: event.amountMinor,
    takenMinor: amountMinor,
    feeTakenMinor: feeMinor,
    disputeFeeMinor: event.feeMinor ?? 0n,
    reason: event.reason.slice(0, 100),
    status: 'open',
    openedAt: now,
    closedAt: null,
  };
  await insertDispute(trx, dispute);
  const clearing = platformAccount('processor_clearing', transfer.currency);
  await takeBack(trx, {
    accountId: transfer.recipientAccountId,
    currency: transfer.currency,
    amountMinor,
    transferId: transfer.id,
    to: clearing,
    operationId: `dispute:${dispute.id}`,
    code: 'dispute',
    alongside: [
      ...(await feeGiveBack(trx, transfer.currency, feeMinor, clearing, 'dispute_fee_given_back')),
      ...disputeFee(dispute.currency, dispute.disputeFeeMinor),
    ],
  });
  await tellBoth(trx, dispute, 'transfer.disputed', now);
  return dispute;
}

/** The processor's dispute fee, from losses to the processor's clearing account. */
function disputeFee(currency: Dispute['currency'], amountMinor: bigint): TransferInput[] {
  if (amountMinor <= 0n) return [];
  return [
    {
      type: 'posted',
      debit: platformAccount('losses', currency),
      credit: platformAccount('processor_clearing', currency),
      amountMinor,
      code: 'dispute_fee',
    },
  ];
}

/** A dispute fee the processor names later than the dispute's opening: the difference is booked. */
async function bookDisputeFee(trx: Trx, dispute: Dispute, feeMinor: bigint): Promise<Dispute> {
  await applyOperation(trx, {
    operationId: `dispute:${dispute.id}:fee`,
    transfers: disputeFee(dispute.currency, feeMinor - dispute.disputeFeeMinor),
  });
  return updateDispute(trx, { id: dispute.id, disputeFeeMinor: feeMinor });
}

async function closeDispute(trx: Trx, dispute: Dispute, outcome: 'won' | 'lost', now: Date): Promise<void> {
  const closed = await updateDispute(trx, { id: dispute.id, status: outcome, closedAt: now });
  if (outcome === 'won' && dispute.takenMinor + dispute.feeTakenMinor > 0n) {
    const clearing = platformAccount('processor_clearing', dispute.currency);
    await receive(trx, {
      accountId: dispute.recipientAccountId,
      currency: dispute.currency,
      amountMinor: dispute.takenMinor,
      from: clearing,
      operationId: `dispute:${dispute.id}:won`,
      code: 'dispute_won',
      alongside:
        dispute.feeTakenMinor > 0n
          ? [
              {
                type: 'posted',
                debit: clearing,
                credit: someFeeShard(dispute.currency),
                amountMinor: dispute.feeTakenMinor,
                code: 'dispute_fee_returned',
              },
            ]
          : [],
    });
  }
  await tellBoth(trx, closed, 'dispute.closed', now);
}

async function tellBoth(trx: Trx, dispute: Dispute, type: 'transfer.disputed' | 'dispute.closed', now: Date): Promise<void> {
  const data = presentDispute(dispute);
  await recordEvents(
    trx,
    [dispute.senderAccountId, dispute.recipientAccountId].map((accountId) => ({ accountId, type, subjectId: dispute.id, data, now })),
  );
}
