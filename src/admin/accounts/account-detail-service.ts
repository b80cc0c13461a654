// GET /admin/accounts?q= and GET /admin/accounts/{id} (DESIGN §17): the search, and one account
// as an operator needs to see it: profile (no secrets), balances on both rails with held and owed,
// its freeze, open disputes, recent transfers, webhook endpoints with their failures, active keys
// and its limits.
import type { Db } from '../../db/database.js';
import { fiatBalances, type FiatBalance } from '../../fiat/fiat-balances.js';
import { listTransfers, type TransferHistoryRow } from '../../fiat/fiat-history-repository.js';
import { paymentMethodsOf, type PaymentMethods } from '../../fiat/processor-customers.js';
import { balancesOfOwner } from '../../ledger/ledger-queries.js';
import { TOKENS, type Token } from '../../money/assets.js';
import { AppError } from '../../platform/errors.js';
import { listHistory, type HistoryRow } from '../../stablecoin/stablecoin-history-repository.js';
import {
  activeKeyCount,
  endpointsWithFailures,
  findProfile,
  openDisputesOf,
  type AccountProfileRow,
  type EndpointHealthRow,
  type OpenDisputeRow,
} from './account-detail-repository.js';
import { searchAccounts, type AccountSummaryRow } from './account-search-repository.js';

/** Recent transfers shown per rail. */
export const RECENT_TRANSFERS = 20;

/**
 * The account's effective limits and overrides (DESIGN §17 Limits), as the limits service
 * presents them to operators (composed in deps.ts).
 */
export interface OperatorLimitsReader {
  forOperators(accountId: number): Promise<unknown>;
}

export interface AccountDetail {
  profile: AccountProfileRow;
  paymentMethods: PaymentMethods;
  fiat: FiatBalance[];
  stablecoin: { currency: Token; availableMinor: bigint; pendingMinor: bigint }[];
  limits: unknown;
  openDisputes: OpenDisputeRow[];
  recentFiat: TransferHistoryRow[];
  recentStablecoin: HistoryRow[];
  webhookEndpoints: EndpointHealthRow[];
  activeKeys: number;
}

export interface AccountDirectory {
  search(q: string): Promise<AccountSummaryRow[]>;
  /** 404 not_found for an unknown id. */
  detail(accountId: number): Promise<AccountDetail>;
}

export function createAccountDirectory(deps: { db: Db; limits: OperatorLimitsReader | null }): AccountDirectory {
  const { db } = deps;
  return {
    search: (q) => searchAccounts(db, q),
    async detail(accountId) {
      const profile = await findProfile(db, accountId);
      if (!profile) throw new AppError('not_found', `No account ${accountId}.`);
      const [paymentMethods, fiat, owned, limits, openDisputes, recentFiat, recentStablecoin, webhookEndpoints, activeKeys] =
        await Promise.all([
          paymentMethodsOf(db, accountId),
          fiatBalances({ db }, accountId),
          balancesOfOwner(db, accountId),
          deps.limits ? deps.limits.forOperators(accountId) : Promise.resolve(null),
          openDisputesOf(db, accountId),
          listTransfers(db, { accountId, after: null, limit: RECENT_TRANSFERS }),
          listHistory(db, { accountId, after: null, limit: RECENT_TRANSFERS }),
          endpointsWithFailures(db, accountId),
          activeKeyCount(db, accountId),
        ]);
      const stablecoin = TOKENS.map((currency) => {
        const b = owned.find((o) => o.asset === currency);
        return { currency, availableMinor: b?.availableMinor ?? 0n, pendingMinor: b?.pendingMinor ?? 0n };
      });
      return {
        profile,
        paymentMethods,
        fiat,
        stablecoin,
        limits,
        openDisputes,
        recentFiat,
        recentStablecoin,
        webhookEndpoints,
        activeKeys,
      };
    },
  };
}
