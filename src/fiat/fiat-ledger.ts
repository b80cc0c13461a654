// How fiat money moves in the ledger. The processor collected amount + fee from the sender's card or
// bank; peerpay's books mirror that with processor_clearing (which may go negative: the processor
// owes peerpay) crediting the recipient with the amount and the platform with the fee. A bank
// debit credits as pending and is later posted (settled) or voided (returned). A payout reserves the
// user's available money as pending towards processor_clearing and posts or voids it likewise.
import { applyOperation, type TransferInput } from '../ledger/ledger.js';
import type { Trx } from '../db/transaction.js';
import { platformAccount, someFeeShard, userAvailable } from '../ledger/ledger-accounts.js';
import type { FiatCurrency } from '../money/assets.js';
import { assert } from '../platform/errors.js';
import { creditOperationId, type FiatTransfer } from './fiat-transfer.js';
import { pendingLedgerTransferIds } from './pending-ledger-repository.js';
import { receive } from './card-risk/take-back.js';

/**
 * When the recipient's card money is held (DESIGN §16): `releaseAt` in the future holds it; absent,
 * it is available at once.
 */
export interface CardHold {
  releaseAt: Date;
  now: Date;
}

/** The hold on a transfer's money: card (instant) money only, for `holdMs` from `now`. */
export function cardHoldOf(transfer: FiatTransfer, holdMs: number, now: Date): CardHold | undefined {
  if (transfer.paymentMethod !== 'instant' || holdMs <= 0) return undefined;
  return { releaseAt: new Date(now.getTime() + holdMs), now };
}

/**
 * Credits the recipient (amount) and the platform (fee), posted at once or pending. A posted credit
 * repays what the recipient owes first (DESIGN §16) and, for card money with `hold`, is held.
 */
export async function creditTransfer(trx: Trx, transfer: FiatTransfer, type: 'posted' | 'pending', hold?: CardHold): Promise<void> {
  assert(transfer.amountMinor > 0n && transfer.feeMinor >= 0n, 'a transfer credits a positive amount and a non-negative fee');
  const clearing = platformAccount('processor_clearing', transfer.currency);
  // A fee that rounds to zero (e.g. 0.01 USD) is no movement at all; the ledger refuses zero amounts.
  const fee: TransferInput[] =
    transfer.feeMinor > 0n
      ? [{ type, debit: clearing, credit: someFeeShard(transfer.currency), amountMinor: transfer.feeMinor, code: 'fiat_fee' }]
      : [];
  if (type === 'posted') {
    await receive(trx, {
      accountId: transfer.recipientAccountId,
      currency: transfer.currency,
      amountMinor: transfer.amountMinor,
      from: clearing,
      hold: hold && { transferId: transfer.id, ...hold },
      operationId: creditOperationId(transfer.id),
      code: 'fiat_transfer',
      alongside: fee,
    });
    return;
  }
  const credit: TransferInput = {
    type,
    debit: clearing,
    credit: userAvailable(transfer.recipientAccountId, transfer.currency),
    amountMinor: transfer.amountMinor,
    code: 'fiat_transfer',
  };
  const applied = await applyOperation(trx, { operationId: creditOperationId(transfer.id), transfers: [credit, ...fee] });
  const total = applied.reduce((sum, t) => sum + t.amountMinor, 0n);
  assert(total === transfer.amountMinor + transfer.feeMinor, 'the ledger moved exactly amount + fee');
}

/** Posts (settled) or voids (returned) a bank-debit transfer's pending credits. */
export async function resolveTransferCredit(trx: Trx, transfer: FiatTransfer, resolution: 'post_pending' | 'void_pending'): Promise<void> {
  const pendingIds = await pendingLedgerTransferIds(trx, creditOperationId(transfer.id));
  assert(pendingIds.length === (transfer.feeMinor > 0n ? 2 : 1), 'a pending transfer has its credit and fee pending');
  const code = resolution === 'post_pending' ? 'fiat_settled' : 'fiat_returned';
  await applyOperation(trx, {
    operationId: `${creditOperationId(transfer.id)}:${resolution === 'post_pending' ? 'settle' : 'return'}`,
    transfers: pendingIds.map((pendingTransferId) => ({ type: resolution, pendingTransferId, code })),
  });
}

export function payoutOperationId(payoutId: string): string {
  return `payout:${payoutId}`;
}

/** Reserves the payout amount: the user's available money, pending towards processor_clearing. */
export async function reservePayout(
  trx: Trx,
  payout: { id: string; accountId: number; currency: FiatCurrency; amountMinor: bigint },
): Promise<void> {
  assert(payout.amountMinor > 0n, 'a payout is positive');
  await applyOperation(trx, {
    operationId: payoutOperationId(payout.id),
    transfers: [
      {
        type: 'pending',
        debit: userAvailable(payout.accountId, payout.currency),
        credit: platformAccount('processor_clearing', payout.currency),
        amountMinor: payout.amountMinor,
        code: 'fiat_payout',
      },
    ],
  });
}

/** Posts (paid) or voids (failed: the money is available again) a payout's reservation. */
export async function resolvePayout(trx: Trx, payoutId: string, resolution: 'post_pending' | 'void_pending'): Promise<void> {
  const pendingIds = await pendingLedgerTransferIds(trx, payoutOperationId(payoutId));
  assert(pendingIds.length === 1, 'a payout has one pending transfer');
  await applyOperation(trx, {
    operationId: `${payoutOperationId(payoutId)}:${resolution === 'post_pending' ? 'paid' : 'failed'}`,
    transfers: [
      {
        type: resolution,
        pendingTransferId: pendingIds[0]!,
        code: resolution === 'post_pending' ? 'fiat_payout_paid' : 'fiat_payout_failed',
      },
    ],
  });
}
