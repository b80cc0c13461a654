// The caller's fiat balances: every supported currency, zero when nothing was ever received.
import type { Deps } from '../deps.js';
import { balancesOfOwner, type OwnerBalance } from '../ledger/ledger-queries.js';
import { FIAT_CURRENCIES, type FiatCurrency } from '../money/assets.js';

export interface FiatBalance {
  currency: FiatCurrency;
  /** Received and settled, less what is reserved for payouts under way. */
  availableMinor: bigint;
  /** Received by bank debit and not yet settled. */
  pendingMinor: bigint;
}

/** `read`: the balances already read with the caller's key (one round trip), when the route asked for them. */
export async function fiatBalances(deps: Pick<Deps, 'db'>, accountId: number, read?: readonly OwnerBalance[]): Promise<FiatBalance[]> {
  const owned = read ?? (await balancesOfOwner(deps.db, accountId));
  return FIAT_CURRENCIES.map((currency) => {
    const found = owned.find((b) => b.asset === currency);
    return { currency, availableMinor: found?.availableMinor ?? 0n, pendingMinor: found?.pendingMinor ?? 0n };
  });
}
