// Stablecoin rail routes that move only ledger balances: the balance here; internal transfers (by `to`
// or by recipientEmail) and fee quotes (stablecoin-transfer-routes.ts), the default withdrawal address
// and history (stablecoin-history-routes.ts) are registered from here. Registration, lookup and the
// wallet live in the account routes.
import { formatMinor } from '../../money/amount.js';
import { TOKENS } from '../../money/assets.js';
import type { StablecoinTransfers } from '../../stablecoin/stablecoin-transfers.js';
import type { StablecoinWithdrawals } from '../../stablecoin/stablecoin-withdrawals.js';
import { callerOf } from '../plugins/auth.js';
import { operation } from '../schemas/operation.js';
import { StablecoinBalanceResponse } from '../schemas/stablecoin-schemas.js';
import type { App } from '../types.js';
import { stablecoinHistoryRoutes, withdrawalAddressRoutes } from './stablecoin-history-routes.js';
import { stablecoinTransferRoutes } from './stablecoin-transfer-routes.js';

/** What these routes use: the transfers (balances and history included) and the default withdrawal address. */
export type StablecoinRoutesDeps = {
  transfers: StablecoinTransfers;
  withdrawals: Pick<StablecoinWithdrawals, 'saveAddress' | 'addressOf'>;
};

export async function stablecoinRoutes(app: App, deps: StablecoinRoutesDeps): Promise<void> {
  balanceRoute(app, deps.transfers);
  stablecoinTransferRoutes(app, deps.transfers);
  withdrawalAddressRoutes(app, deps.withdrawals);
  stablecoinHistoryRoutes(app, deps.transfers);
}

/** GET /stablecoin/balance: USDC and EURC the caller can spend now. */
function balanceRoute(app: App, transfers: Pick<StablecoinTransfers, 'balances'>): void {
  app.get(
    '/stablecoin/balance',
    operation({
      operationId: 'getStablecoinBalance',
      tag: 'stablecoin',
      summary: 'USDC and EURC balances',
      description:
        'What the caller can spend now, as exact decimal strings with all 6 decimals (`"100.000000"`), like the fiat GET /balance gives every currency’s decimals. Both tokens are always present, zero included.',
      auth: 'required',
      authReadsBalances: true,
      responses: { 200: StablecoinBalanceResponse },
      errors: [],
    }),
    async (request) => {
      const caller = callerOf(request);
      const balances = await transfers.balances(caller.accountId, caller.balances);
      return Object.fromEntries(TOKENS.map((token) => [token, formatMinor(balances[token], token)]));
    },
  );
}
