// The events of the stablecoin rail (DESIGN §13), recorded in the transaction of the change, each
// carrying the item as GET /stablecoin/history shows it to the account that receives the event.
import type { Trx } from '../db/transaction.js';
import { recordEvent, type NewEvent } from '../events/record-event.js';
import { presentHistoryItem } from './stablecoin-history-view.js';
import { assert } from '../platform/errors.js';
import type { NewDeposit } from './deposits/deposits-repository.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';
import type { Withdrawal } from './withdrawal.js';

/**
 * An internal transfer completes at once: transfer.sent to the sender, transfer.received to the
 * recipient, each naming the other by handle.
 */
export function stablecoinTransferEvents(transfer: StablecoinTransfer, handles: { sender: string; recipient: string }): NewEvent[] {
  const item = {
    id: transfer.id,
    type: 'transfer' as const,
    currency: transfer.currency,
    amountMinor: transfer.amountMinor,
    feeMinor: transfer.feeMinor,
    status: transfer.status,
    address: null,
    txHash: null,
    createdAt: transfer.createdAt,
  };
  return [
    {
      accountId: transfer.senderAccountId,
      type: 'transfer.sent',
      subjectId: transfer.id,
      data: presentHistoryItem({ ...item, direction: 'sent', counterpartyHandle: handles.recipient }),
      now: transfer.createdAt,
    },
    {
      accountId: transfer.recipientAccountId,
      type: 'transfer.received',
      subjectId: transfer.id,
      data: presentHistoryItem({ ...item, direction: 'received', counterpartyHandle: handles.sender }),
      now: transfer.createdAt,
    },
  ];
}

export async function recordDepositEvent(
  trx: Trx,
  deposit: Pick<NewDeposit, 'id' | 'accountId' | 'token' | 'amountMinor' | 'from' | 'txHash' | 'creditedAt'>,
): Promise<void> {
  const data = presentHistoryItem({
    id: deposit.id,
    type: 'deposit',
    direction: 'received',
    currency: deposit.token,
    amountMinor: deposit.amountMinor,
    feeMinor: 0n,
    status: 'complete',
    counterpartyHandle: null,
    address: deposit.from,
    txHash: deposit.txHash,
    createdAt: deposit.creditedAt,
  });
  await recordEvent(trx, { accountId: deposit.accountId, type: 'deposit.credited', subjectId: deposit.id, data, now: deposit.creditedAt });
}

/** A withdrawal ended: withdrawal.completed or withdrawal.failed (its gross refunded). */
export async function recordWithdrawalEvent(trx: Trx, w: Withdrawal, now: Date): Promise<void> {
  assert(w.status !== 'pending', 'only an ended withdrawal has an event');
  const data = presentHistoryItem({
    id: w.id,
    type: 'withdrawal',
    direction: 'sent',
    currency: w.currency,
    amountMinor: w.grossMinor,
    feeMinor: w.feeMinor,
    status: w.status,
    counterpartyHandle: null,
    address: w.address,
    txHash: w.txHash,
    createdAt: w.createdAt,
  });
  const type = w.status === 'complete' ? 'withdrawal.completed' : 'withdrawal.failed';
  await recordEvent(trx, { accountId: w.accountId, type, subjectId: w.id, data, now });
}
