// Fiat rail routes: balances here; setup links (fiat-link-routes.ts), transfers and their quotes
// (fiat-transfer-routes.ts) and history (fiat-history-routes.ts) are registered from here, in the
// same scope.
import { formatMinor } from '../../money/amount.js';
import { AppError } from '../../platform/errors.js';
import { callerOf } from '../plugins/auth.js';
import { operation } from '../schemas/operation.js';
import { BalanceResponse } from '../schemas/fiat-schemas.js';
import type { App } from '../types.js';
import { fiatHistoryRoutes } from './fiat-history-routes.js';
import { setupLinkRoutes } from './fiat-link-routes.js';
import { fiatTransferRoutes } from './fiat-transfer-routes.js';
import type { FiatTransfers } from '../../fiat/fiat-transfers.js';
import type { FiatHistory } from '../../fiat/fiat-history.js';
import type { SetupLinks } from '../../fiat/setup-links.js';

/** What these routes call. */
export type FiatRoutesServices = { transfers: FiatTransfers; history: FiatHistory; setupLinks: SetupLinks };

export async function fiatRoutes(app: App, { transfers, history, setupLinks }: FiatRoutesServices): Promise<void> {
  // Processor failures reach the client as 503 processor_unavailable; their cause is logged here.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError && error.code === 'processor_unavailable')
      request.log.error({ err: error.cause }, 'payment processor call failed');
  });

  setupLinkRoutes(app, setupLinks);
  fiatTransferRoutes(app, transfers);
  balanceRoute(app, transfers);
  fiatHistoryRoutes(app, history);
}

/** GET /balance: fiat balances per currency. */
function balanceRoute(app: App, transfers: FiatTransfers): void {
  app.get(
    '/balance',
    operation({
      operationId: 'getBalance',
      tag: 'fiat',
      summary: 'Fiat balances per currency',
      description: 'Money received and not yet paid out. Every supported currency is listed, zero included.',
      auth: 'required',
      authReadsBalances: true,
      responses: { 200: BalanceResponse },
      errors: [],
    }),
    async (request) => {
      const caller = callerOf(request);
      const balances = await transfers.balances(caller.accountId, caller.balances);
      return {
        balances: balances.map((b) => ({
          currency: b.currency,
          available: formatMinor(b.availableMinor, b.currency),
          pending: formatMinor(b.pendingMinor, b.currency),
          held: formatMinor(b.heldMinor, b.currency),
          owed: formatMinor(b.owedMinor, b.currency),
        })),
      };
    },
  );
}
