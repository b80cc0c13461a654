// GET /admin/treasury, for the operator (decision 0019). Registered only when OPERATOR_TOKEN is set
// (otherwise the path does not exist: 404). The token is compared in constant time, as hashes of
// equal length; a user's API key is not an operator token. Left out of the OpenAPI document: it is
// not part of the contract, and client SDKs have no business calling it.
import type { Deps } from '../../deps.js';
import { formatMinor } from '../../money/amount.js';
import { createOperatorCredential } from '../operator-credential.js';
import { readTreasury, type TokenTreasury } from '../../stablecoin/treasury/treasury-view.js';
import { TreasuryResponse } from '../schemas/admin-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

export async function adminRoutes(app: App, deps: Deps): Promise<void> {
  const requireOperator = createOperatorCredential(deps.config.treasury.operatorToken);
  if (requireOperator === null) return;

  app.get(
    '/admin/treasury',
    operation({
      operationId: 'getTreasury',
      tag: 'service',
      summary: 'The hot wallet, custody, fees and waiting withdrawals, for the operator',
      auth: 'public',
      published: false,
      responses: { 200: TreasuryResponse },
      errors: ['unauthorized'],
    }),
    async (request) => {
      requireOperator(request);
      const view = await readTreasury(deps);
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
