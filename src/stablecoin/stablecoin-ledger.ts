// How an internal stablecoin transfer moves in the ledger: the sender's available balance pays the
// recipient the net amount and the platform the fee, as one operation, so that both happen or
// neither. The ledger's conditional updates refuse it (insufficient_balance) when the sender's
// balance, less what is reserved, is short — under any concurrency.
import { applyOperation, type TransferInput, type Trx } from '../ledger/ledger.js';
import type { MemberPlan } from '../ledger/group-commit.js';
import { platformAccount, userAvailable, type LedgerAccountKey } from '../ledger/ledger-accounts.js';
import { assert } from '../platform/errors.js';
import { netOf, transferOperationId, type StablecoinTransfer } from './stablecoin-transfer.js';

type PlannedTransfer = Pick<StablecoinTransfer, 'senderAccountId' | 'recipientAccountId' | 'currency' | 'amountMinor'>;

/** The ledger accounts moveTransferMoney names, for a group commit to lock before it runs. */
export function transferAccounts(transfer: PlannedTransfer): LedgerAccountKey[] {
  return [
    userAvailable(transfer.senderAccountId, transfer.currency),
    userAvailable(transfer.recipientAccountId, transfer.currency),
    platformAccount('fees', transfer.currency),
  ];
}

/** For a group commit: the accounts moveTransferMoney names, and what it takes from the sender (the whole amount, fee included). */
export function transferPlan(transfer: PlannedTransfer): MemberPlan {
  return {
    accounts: transferAccounts(transfer),
    spends: [{ account: userAvailable(transfer.senderAccountId, transfer.currency), amountMinor: transfer.amountMinor }],
  };
}

export async function moveTransferMoney(trx: Trx, transfer: StablecoinTransfer): Promise<void> {
  // Before writing: a positive amount of which the fee leaves something for the recipient.
  assert(transfer.feeMinor >= 0n && netOf(transfer) > 0n, 'a stablecoin transfer pays the recipient something');
  const sender = userAvailable(transfer.senderAccountId, transfer.currency);
  const transfers: TransferInput[] = [
    {
      type: 'posted',
      debit: sender,
      credit: userAvailable(transfer.recipientAccountId, transfer.currency),
      amountMinor: netOf(transfer),
      code: 'stablecoin_transfer',
    },
  ];
  // A fee that rounds to zero (amounts up to 0.000033) is no movement; the ledger refuses zero amounts.
  if (transfer.feeMinor > 0n) {
    transfers.push({
      type: 'posted',
      debit: sender,
      credit: platformAccount('fees', transfer.currency),
      amountMinor: transfer.feeMinor,
      code: 'stablecoin_fee',
    });
  }
  const applied = await applyOperation(trx, { operationId: transferOperationId(transfer.id), transfers });
  // After: the ledger took exactly the amount from the sender.
  assert(applied.reduce((sum, t) => sum + t.amountMinor, 0n) === transfer.amountMinor, 'the ledger moved exactly the amount');
}
