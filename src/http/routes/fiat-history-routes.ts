// Fiat history: transfers sent and received, and every ledger entry of the caller, newest first,
// paged with limit and cursor.
import { DEFAULT_PAGE_SIZE } from '../../fiat/fiat-history-service.js';
import type { FiatHistory } from '../../fiat/fiat-history.js';
import { presentEntry, presentHistoryItem } from '../../fiat/fiat-history-view.js';
import { callerOf } from '../plugins/auth.js';
import { PageQuery, TransactionsResponse, TransferHistoryResponse } from '../schemas/fiat-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

export function fiatHistoryRoutes(app: App, history: FiatHistory): void {
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
      const page = await history.transfers(pageRequest(callerOf(request).accountId, request.query));
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
      const page = await history.transactions(pageRequest(callerOf(request).accountId, request.query));
      return { transactions: page.items.map(presentEntry), nextCursor: page.nextCursor };
    },
  );
}

function pageRequest(accountId: number, query: { limit?: string | undefined; cursor?: string | undefined }) {
  // The schema's pattern admits only 1..100.
  return { accountId, limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit), cursor: query.cursor };
}
