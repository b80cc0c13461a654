// The events of a fiat transfer's change of status (DESIGN §13), recorded in the transaction that
// changes it, to both sides, each seeing the transfer as its GET /transfers shows it:
//   processing → completed   sender: transfer.sent, transfer.completed; recipient: transfer.received, transfer.completed
//   processing → pending     sender: transfer.sent; recipient: transfer.received (its pending credit)
//   processing → failed      sender: transfer.failed (the recipient never saw it)
//   pending    → completed   both: transfer.completed
//   pending    → failed      both: transfer.failed (the recipient's pending credit is gone)
import type { Trx } from '../db/transaction.js';
import { findHandles } from '../accounts/accounts-repository.js';
import { recordEvents, type NewEvent } from '../events/record-event.js';
import type { EventType } from '../events/event-types.js';
import { presentHistoryItem } from './fiat-history-view.js';
import type { FiatTransfer } from './fiat-transfer.js';

type Side = 'sent' | 'received';

/** The handles of a transfer's two accounts (a handle never changes once given). */
export interface TransferHandles {
  sender: string;
  recipient: string;
}

/**
 * Records the events of the change, all of them in one statement. `handles` when the caller knows
 * them (a request does), read here otherwise.
 */
export async function recordTransferEvents(
  trx: Trx,
  input: { transfer: FiatTransfer; from: 'processing' | 'pending'; now: Date; handles?: TransferHandles | undefined },
): Promise<void> {
  if (eventsFor(input.from, input.transfer.status).length === 0) return;
  const handles = input.handles ?? (await handlesOf(trx, input.transfer));
  await recordEvents(trx, transferEvents({ ...input, handles }));
}

/** The events of the change, to record in the transaction that makes it (none for a change that has none). */
export function transferEvents(input: {
  transfer: FiatTransfer;
  from: 'processing' | 'pending';
  now: Date;
  handles: TransferHandles;
}): NewEvent[] {
  const { transfer, handles } = input;
  return eventsFor(input.from, transfer.status).map(([side, type]): NewEvent => {
    const data = presentHistoryItem({
      ...transfer,
      direction: side,
      senderHandle: handles.sender,
      recipientHandle: handles.recipient,
      // A transfer's events come before any refund of it: refunds need it completed.
      refundedMinor: 0n,
    });
    const accountId = side === 'sent' ? transfer.senderAccountId : transfer.recipientAccountId;
    return { accountId, type, subjectId: transfer.id, data, now: input.now };
  });
}

async function handlesOf(trx: Trx, transfer: FiatTransfer): Promise<TransferHandles> {
  const found = await findHandles(trx, { source: transfer.senderAccountId, target: transfer.recipientAccountId });
  return { sender: found.source, recipient: found.target };
}

function eventsFor(from: 'processing' | 'pending', to: FiatTransfer['status']): Array<[Side, EventType]> {
  if (from === 'processing' && to === 'completed') {
    return [
      ['sent', 'transfer.sent'],
      ['received', 'transfer.received'],
      ['sent', 'transfer.completed'],
      ['received', 'transfer.completed'],
    ];
  }
  if (from === 'processing' && to === 'pending') {
    return [
      ['sent', 'transfer.sent'],
      ['received', 'transfer.received'],
    ];
  }
  if (from === 'processing' && to === 'failed') return [['sent', 'transfer.failed']];
  if (from === 'pending' && to === 'completed') {
    return [
      ['sent', 'transfer.completed'],
      ['received', 'transfer.completed'],
    ];
  }
  if (from === 'pending' && to === 'failed') {
    return [
      ['sent', 'transfer.failed'],
      ['received', 'transfer.failed'],
    ];
  }
  return [];
}
