// GET /v1/w3s/transactions as Circle answers it: newest first; `from`/`to` bound createDate
// (inclusive); pageAfter names a transaction of the list and the page holds those after it.
import { circleErrors } from './errors.js';
import type { Store, TransactionRecord } from './store.js';

export function listTransactions(store: Store, params: Record<string, unknown>): TransactionRecord[] {
  const walletIds = typeof params.walletIds === 'string' ? new Set(params.walletIds.split(',')) : null;
  const from = typeof params.from === 'string' ? Date.parse(params.from) : -Infinity;
  const to = typeof params.to === 'string' ? Date.parse(params.to) : Infinity;
  const all = [...store.transactions.values()]
    .filter((tx) => params.txType === undefined || tx.transactionType === params.txType)
    .filter((tx) => walletIds === null || walletIds.has(tx.walletId))
    .filter((tx) => Date.parse(tx.createDate) >= from && Date.parse(tx.createDate) <= to)
    .sort((a, b) => Date.parse(b.createDate) - Date.parse(a.createDate) || b.sequence - a.sequence);
  let start = 0;
  if (typeof params.pageAfter === 'string') {
    const at = all.findIndex((tx) => tx.id === params.pageAfter);
    if (at === -1) throw circleErrors.cursor();
    start = at + 1;
  }
  return all.slice(start, start + Number(params.pageSize ?? 10));
}
