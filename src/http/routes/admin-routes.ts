// GET /admin/treasury, for the operator (decision 0019). Who may call it is decided by
// plugins/operator-auth.ts: without a valid operator credential it answers exactly as an unknown path
// (DESIGN §17), also when OPERATOR_TOKEN is unset. Left out of the OpenAPI document: it is not part
// of the contract, and client SDKs have no business calling it.
import { formatMinor } from '../../money/amount.js';
import type { TokenTreasury } from '../../stablecoin/treasury/treasury-view.js';
import type { Treasury } from '../../stablecoin/treasury/treasury-service.js';
import { operatorOnly, type OperatorGateDeps } from '../plugins/operator-auth.js';
import { TreasuryResponse } from '../schemas/admin-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

/** What these routes use: the treasury, and the operators' gate. */
export interface AdminRoutesDeps extends OperatorGateDeps {
  treasury: Pick<Treasury, 'view'>;
}

export async function adminRoutes(app: App, deps: AdminRoutesDeps): Promise<void> {
  const forOperators = operatorOnly(app, deps);
  app.get(
    '/admin/treasury',
    forOperators(
      operation({
        operationId: 'getTreasury',
        tag: 'service',
        summary: 'The hot wallet, custody, fees and waiting withdrawals, for the operator',
        // Not a user's API key: the operator's credential is checked by forOperators.
        auth: 'public',
        published: false,
        responses: { 200: TreasuryResponse },
        errors: [],
      }),
    ),
    async () => {
      const view = await deps.treasury.view();
      return {
        hotWallet: view.hotWallet,
        coldAddress: view.coldAddress,
        gas: { balanceWei: String(view.gas.balanceWei), minWei: String(view.gas.minWei), low: view.gas.low },
        tokens: view.tokens.map(presentToken),
      };
    },
  );
}

function presentToken(t: TokenTreasury) {
  const amount = (minor: bigint) => formatMinor(minor, t.token);
  return {
    token: t.token,
    hotWallet: amount(t.hotWalletMinor),
    committed: amount(t.committedMinor),
    available: amount(t.hotWalletMinor - t.committedMinor),
    coldSent: amount(t.coldSentMinor),
    coldReturned: amount(t.coldReturnedMinor),
    floor: t.floorMinor === null ? null : amount(t.floorMinor),
    ceiling: t.ceilingMinor === null ? null : amount(t.ceilingMinor),
    custody: {
      books: amount(t.booksCustodyMinor),
      lastCheck: t.lastCheck
        ? {
            chain: amount(t.lastCheck.chainMinor),
            books: amount(t.lastCheck.booksMinor),
            ok: t.lastCheck.ok,
            blockNumber: String(t.lastCheck.blockNumber),
            checkedAt: t.lastCheck.checkedAt.toISOString(),
          }
        : null,
    },
    userBalances: amount(t.userBalancesMinor),
    feesEarned: amount(t.feesMinor),
    waitingWithdrawals: { count: t.waitingWithdrawals, overdue: t.overdueWithdrawals, oldestAgeSeconds: t.oldestWaitingSeconds },
  };
}
