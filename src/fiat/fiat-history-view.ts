// The fiat history items as the API shows them (GET /transfers, GET /transactions); events carry
// the same shapes (src/events/), so a webhook shows a transfer exactly as the list does.
import { formatMinor } from '../money/amount.js';
import type { TransferHistoryRow, EntryRow } from './fiat-history-repository.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function presentHistoryItem(t: TransferHistoryRow) {
  const sent = t.direction === 'sent';
  return {
    id: t.id,
    direction: t.direction,
    amount: formatMinor(t.amountMinor, t.currency),
    // The fee is the sender's business: a recipient sees only what it received.
    ...(sent
      ? {
          fee: formatMinor(t.feeMinor, t.currency),
          totalDeducted: formatMinor(t.amountMinor + t.feeMinor, t.currency),
          failureCode: t.failureCode,
        }
      : {}),
    currency: t.currency,
    status: t.status,
    paymentMethod: t.paymentMethod,
    counterpartyHandle: sent ? t.recipientHandle : t.senderHandle,
    senderHandle: t.senderHandle,
    recipientHandle: t.recipientHandle,
    note: t.note,
    refunded: formatMinor(t.refundedMinor, t.currency),
    createdAt: t.createdAt.toISOString(),
    completedAt: t.status === 'completed' || t.status === 'failed' ? iso(t.completedAt) : null,
  };
}

export function presentEntry(e: EntryRow) {
  return {
    id: e.id,
    type: e.type,
    amount: formatMinor(e.amountMinor, e.currency),
    currency: e.currency,
    status: e.status,
    transferId: e.transferId,
    payoutId: e.payoutId,
    paymentMethod: e.paymentMethod,
    counterpartyHandle: e.counterpartyHandle,
    createdAt: e.createdAt.toISOString(),
    completedAt: iso(e.completedAt),
  };
}
