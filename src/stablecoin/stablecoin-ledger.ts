// How an internal stablecoin transfer moves in the ledger: the sender's available balance pays the
// recipient the net amount and the platform the fee, as one operation, so that both happen or
// neither. The ledger's conditional updates refuse it (insufficient_balance) when the sender's
// balance, less what is reserved, is short — under any concurrency.
import type { Operation, TransferInput } from '../ledger/ledger.js';
import { platformAccount, userAvailable, type LedgerAccountKey } from '../ledger/ledger-accounts.js';
import { assert } from '../platform/errors.js';
import { netOf, transferOperationId, type StablecoinTransfer } from './stablecoin-transfer.js';

type PlannedTransfer = Pick<StablecoinTransfer, 'senderAccountId' | 'recipientAccountId' | 'currency' | 'amountMinor'>;

/** The ledger accounts a transfer's operation names, for a group commit to lock before it runs. */
export function transferAccounts(transfer: PlannedTransfer): LedgerAccountKey[] {
  return [
    userAvailable(transfer.senderAccountId, transfer.currency),
    userAvailable(transfer.recipientAccountId, transfer.currency),
    platformAccount('fees', transfer.currency),
  ];
}

/** The ledger operation of a transfer: the net to the recipient and the fee to the platform, both from the sender. */
export function transferOperation(transfer: StablecoinTransfer): Operation {
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
  return { operationId: transferOperationId(transfer.id), transfers };
}
