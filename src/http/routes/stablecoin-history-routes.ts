// Stablecoin history (transfers sent and received, withdrawals, deposits), newest first, and the
// default withdrawal address that withdrawals without an address go to.
import { DEFAULT_PAGE_SIZE } from '../../stablecoin/stablecoin-history.js';
import type { StablecoinTransfers } from '../../stablecoin/stablecoin-transfers.js';
import type { StablecoinWithdrawals } from '../../stablecoin/stablecoin-withdrawals.js';
import { presentHistoryItem } from '../../stablecoin/stablecoin-history-view.js';
import { callerOf } from '../plugins/auth.js';
import { PageQuery } from '../schemas/fiat-schemas.js';
import { operation } from '../schemas/operation.js';
import {
  HistoryResponse,
  SavedWithdrawalAddressResponse,
  WithdrawalAddressBody,
  WithdrawalAddressResponse,
} from '../schemas/stablecoin-schemas.js';
import type { App } from '../types.js';

export function withdrawalAddressRoutes(app: App, withdrawals: Pick<StablecoinWithdrawals, 'saveAddress' | 'addressOf'>): void {
  app.put(
    '/stablecoin/withdrawal-address',
    operation({
      operationId: 'setWithdrawalAddress',
      tag: 'stablecoin',
      summary: 'Save the default address that withdrawals without an address go to',
      description:
        'A Polygon address: 0x and 40 hex digits; mixed case must match its EIP-55 checksum; never the zero address, peerpay’s hot wallet, a token contract or a peerpay deposit address (400 `invalid_address`, as a withdrawal to it would be). A sanctioned address is refused with 403 `destination_sanctioned` and the account is frozen, as a withdrawal to it would be; 503 `screening_unavailable` when it cannot be screened now. Replaces any saved address; answered checksummed.',
      auth: 'required',
      readsBody: true,
      body: WithdrawalAddressBody,
      responses: { 200: WithdrawalAddressResponse },
      errors: ['invalid_address', 'destination_sanctioned', 'screening_unavailable'],
    }),
    async (request) => ({
      address: await withdrawals.saveAddress({ accountId: callerOf(request).accountId, address: request.body.address }),
    }),
  );

  app.get(
    '/stablecoin/withdrawal-address',
    operation({
      operationId: 'getWithdrawalAddress',
      tag: 'stablecoin',
      summary: 'The saved default withdrawal address',
      auth: 'required',
      responses: { 200: SavedWithdrawalAddressResponse },
      errors: [],
    }),
    async (request) => ({ address: await withdrawals.addressOf(callerOf(request).accountId) }),
  );
}

export function stablecoinHistoryRoutes(app: App, transfers: Pick<StablecoinTransfers, 'history'>): void {
  app.get(
    '/stablecoin/transfers',
    operation({
      operationId: 'listStablecoinTransfers',
      tag: 'stablecoin',
      summary: 'Stablecoin history, newest first',
      description:
        'Transfers sent and received (`type: "transfer"`) and withdrawals (`type: "withdrawal"`, with `address`, `txHash` and their status). A received transfer shows what reached the caller and never the sender’s fee. Paged with `limit` (1–100, default 20) and `cursor` (`nextCursor` of the previous page).',
      auth: 'required',
      querystring: PageQuery,
      responses: { 200: HistoryResponse },
      errors: [],
    }),
    async (request) => {
      // The schema's pattern admits only 1..100.
      const limit = request.query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(request.query.limit);
      const page = await transfers.history({ accountId: callerOf(request).accountId, limit, cursor: request.query.cursor });
      return { transfers: page.items.map(presentHistoryItem), nextCursor: page.nextCursor };
    },
  );
}
