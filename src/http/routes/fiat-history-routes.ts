// Fiat history: transfers sent and received, and every ledger entry of the caller, newest first,
// paged with limit and cursor.
import type { Deps } from '../../deps.js';
import { formatMinor } from '../../money/amount.js';
import { DEFAULT_PAGE_SIZE, transactionHistory, transferHistory } from '../../fiat/fiat-history-service.js';
import type { TransferHistoryRow, EntryRow } from '../../fiat/fiat-history-repository.js';
import { callerOf } from '../plugins/auth.js';
import { PageQuery, TransactionsResponse, TransferHistoryResponse } from '../schemas/fiat-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

export function fiatHistoryRoutes(app: App, deps: Deps): void {
  app.get(
    '/transfers',
    operation({
      operationId: 'listTransfers',
      tag: 'fiat',
      summary: 'Transfers sent and received, newest first',
      description:
        'Received transfers appear once they reach the caller (pending or completed, or failed after a returned bank debit) and never show the sender’s fee.',
      auth: 'required',
      querystring: PageQuery,
      responses: { 200: TransferHistoryResponse },
      errors: [],
    }),
    async (request) => {
      const page = await transferHistory(deps, pageRequest(callerOf(request).accountId, request.query));
      return { transfers: page.items.map(presentHistoryItem), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/transactions',
    operation({
      operationId: 'listTransactions',
      tag: 'fiat',
      summary: 'Every debit, fee, credit and payout of the caller, newest first',
      auth: 'required',
      querystring: PageQuery,
      responses: { 200: TransactionsResponse },
      errors: [],
    }),
    async (request) => {
      const page = await transactionHistory(deps, pageRequest(callerOf(request).accountId, request.query));
      return { transactions: page.items.map(presentEntry), nextCursor: page.nextCursor };
    },
  );
}

function pageRequest(accountId: number, query: { limit?: string | undefined; cursor?: string | undefined }) {
  // The schema's pattern admits only 1..100.
  return { accountId, limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit), cursor: query.cursor };
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function presentHistoryItem(t: TransferHistoryRow) {
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
    createdAt: t.createdAt.toISOString(),
    completedAt: t.status === 'completed' || t.status === 'failed' ? iso(t.completedAt) : null,
  };
}

function presentEntry(e: EntryRow) {
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
