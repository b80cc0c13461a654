// How a withdrawal moves in the ledger. Reserving: the user's available balance → chain_custody for
// `net` (the tokens that leave peerpay's custody) and → fees for `fee`, both PENDING, in the
// transaction that records the withdrawal, so the whole gross is held at once and concurrent
// withdrawals can never overdraw (the ledger's conditional update refuses them). The fee is pending
// too, not posted: a withdrawal that fails refunds the gross by voiding both, and the fees account
// never shows revenue that may still be handed back. Confirmed on chain: both are posted. Failed:
// both are voided.
import { sql } from 'kysely';
import { applyOperation, type TransferInput } from '../ledger/ledger.js';
import type { Trx } from '../db/transaction.js';
import { platformAccount, someFeeShard, userAvailable } from '../ledger/ledger-accounts.js';
import { assert } from '../platform/errors.js';
import { withdrawalOperationId, type Withdrawal } from './withdrawal.js';

/** A withdrawal's reservation is at most two pending transfers (net and fee). */
const MAX_PENDING = 2;

export async function reserveWithdrawal(trx: Trx, w: Withdrawal): Promise<void> {
  // Before writing: gross is split exactly into what is sent and what is kept.
  assert(w.netMinor > 0n && w.feeMinor >= 0n && w.netMinor + w.feeMinor === w.grossMinor, 'gross = net + fee, net > 0');
  const user = userAvailable(w.accountId, w.currency);
  const transfers: TransferInput[] = [
    { type: 'pending', debit: user, credit: platformAccount('chain_custody', w.currency), amountMinor: w.netMinor, code: 'withdrawal' },
  ];
  // A fee that rounds to zero (amounts up to 0.000033) is no movement; the ledger refuses zero amounts.
  if (w.feeMinor > 0n)
    transfers.push({
      type: 'pending',
      debit: user,
      credit: someFeeShard(w.currency),
      amountMinor: w.feeMinor,
      code: 'withdrawal_fee',
    });
  const applied = await applyOperation(trx, { operationId: withdrawalOperationId(w.id), transfers });
  // After: exactly the gross is held.
  assert(applied.reduce((sum, t) => sum + t.amountMinor, 0n) === w.grossMinor, 'the ledger reserved exactly the gross');
}

/** Posts (completed on chain) or voids (failed: the gross goes back) the reservation. */
export async function resolveWithdrawal(trx: Trx, w: Withdrawal, resolution: 'post_pending' | 'void_pending'): Promise<void> {
  const pending = await sql<{ id: bigint }>`
    select id from ledger_transfers where operation_id = ${withdrawalOperationId(w.id)} and kind = 'pending'
     order by id limit ${MAX_PENDING}`.execute(trx);
  assert(pending.rows.length === (w.feeMinor > 0n ? 2 : 1), 'a withdrawal reserved its net and its fee');
  const applied = await applyOperation(trx, {
    operationId: `${withdrawalOperationId(w.id)}:${resolution === 'post_pending' ? 'complete' : 'refund'}`,
    transfers: pending.rows.map((row) => ({
      type: resolution,
      pendingTransferId: BigInt(row.id),
      code: resolution === 'post_pending' ? 'withdrawal_complete' : 'withdrawal_refund',
    })),
  });
  assert(applied.reduce((sum, t) => sum + t.amountMinor, 0n) === w.grossMinor, 'the resolution covers exactly the gross');
}
