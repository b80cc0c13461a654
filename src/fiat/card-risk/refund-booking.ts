// The ledger side of refunds (DESIGN §16), whoever made them: booking one takes the amount back
// from the recipient (take-back rule) and the fee from the platform, once per refund; a refund
// that fails is undone once (the money comes back to the recipient, repaying what it owes first).
import { recordEvents } from '../../events/record-event.js';
import type { Trx } from '../../db/transaction.js';
import { platformAccount, someFeeShard } from '../../ledger/ledger-accounts.js';
import type { FiatTransfer } from '../fiat-transfer.js';
import { presentRefund } from './card-risk-views.js';
import { feeGiveBack } from './fee-give-back.js';
import { insertRefund, takenOfTransfer, updateRefund, type Refund } from './refunds-repository.js';
import { receive, takeBack } from './take-back.js';

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** What of a transfer can still be given back: its amount and its fee, less refunds and disputes. */
export async function refundableOf(trx: Trx, transfer: FiatTransfer): Promise<{ amountMinor: bigint; feeMinor: bigint }> {
  const taken = await takenOfTransfer(trx, transfer.id);
  return { amountMinor: transfer.amountMinor - taken.amountMinor, feeMinor: transfer.feeMinor - taken.feeMinor };
}

const atLeastZero = (a: bigint) => (a > 0n ? a : 0n);

/**
 * Splits what the processor took of a charge (a refund, a dispute) into the recipient's part first,
 * then the fee; the parts always add up to the processor's amount. peerpay's idea of what is left
 * can be short of the processor's for a while: a refund the processor has failed (or refused) still
 * counts until its failure is applied, whatever order the events come in. What does not fit is the
 * recipient's too, and comes back to them when that refund is undone; clamping it instead would
 * book less than the processor took, or drop a refund whose events are then spent.
 */
export function splitChargeAmount(chargeMinor: bigint, refundable: { amountMinor: bigint; feeMinor: bigint }) {
  const recipientFirst = min(chargeMinor, atLeastZero(refundable.amountMinor));
  const feeMinor = min(chargeMinor - recipientFirst, atLeastZero(refundable.feeMinor));
  return { amountMinor: chargeMinor - feeMinor, feeMinor };
}

/** Books `refund` of `transfer` (locked by the caller); false when it was booked before. */
export async function bookRefund(trx: Trx, input: { transfer: FiatTransfer; refund: Refund; now: Date }): Promise<boolean> {
  const { transfer, refund } = input;
  if (!(await insertRefund(trx, refund))) return false;
  const clearing = platformAccount('processor_clearing', transfer.currency);
  await takeBack(trx, {
    accountId: transfer.recipientAccountId,
    currency: transfer.currency,
    amountMinor: refund.amountMinor,
    transferId: transfer.id,
    to: clearing,
    operationId: `refund:${refund.id}`,
    code: 'refund',
    alongside: await feeGiveBack(trx, transfer.currency, refund.feeMinor, clearing, 'refund_fee'),
  });
  const data = presentRefund(refund);
  await recordEvents(
    trx,
    [transfer.senderAccountId, transfer.recipientAccountId].map((accountId) => ({
      accountId,
      type: 'transfer.refunded' as const,
      subjectId: refund.id,
      data,
      now: input.now,
    })),
  );
  return true;
}

/** Gives a failed refund's money back, once: false when it was undone before. */
export async function failRefund(trx: Trx, input: { refund: Refund; transfer: FiatTransfer; now: Date }): Promise<boolean> {
  const { refund, transfer } = input;
  if (refund.status === 'failed') return false;
  await updateRefund(trx, { id: refund.id, status: 'failed', undoneAt: input.now, now: input.now });
  const clearing = platformAccount('processor_clearing', transfer.currency);
  await receive(trx, {
    accountId: transfer.recipientAccountId,
    currency: transfer.currency,
    amountMinor: refund.amountMinor,
    from: clearing,
    operationId: `refund:${refund.id}:undo`,
    code: 'refund_undone',
    alongside:
      refund.feeMinor > 0n
        ? [
            {
              type: 'posted',
              debit: clearing,
              credit: someFeeShard(transfer.currency),
              amountMinor: refund.feeMinor,
              code: 'refund_fee_undone',
            },
          ]
        : [],
  });
  return true;
}
