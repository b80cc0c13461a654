// A stablecoin history item as the API shows it (GET /stablecoin/history); events carry the same
// shape (src/events/) for transfers, deposits and withdrawals.
import { toJsonNumber } from '../money/amount.js';
import type { HistoryRow } from './stablecoin-history-repository.js';
import { netOf } from './stablecoin-transfer.js';

export function presentHistoryItem(h: HistoryRow) {
  const sent = h.direction === 'sent';
  return {
    id: h.id,
    type: h.type,
    direction: h.direction,
    // The fee is the sender's business: a recipient sees only what reached it.
    amount: toJsonNumber(sent ? h.amountMinor : netOf(h), h.currency),
    ...(sent ? { fee: toJsonNumber(h.feeMinor, h.currency), recipientAmount: toJsonNumber(netOf(h), h.currency) } : {}),
    currency: h.currency,
    status: h.status as 'complete' | 'pending' | 'failed',
    ...(h.type === 'withdrawal' || h.type === 'deposit' ? { address: h.address ?? undefined, txHash: h.txHash } : {}),
    counterpartyHandle: h.counterpartyHandle,
    createdAt: h.createdAt.toISOString(),
  };
}
