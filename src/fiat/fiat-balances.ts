// The caller's fiat balances: every supported currency, zero when nothing was ever received.
import type { Db } from '../db/database.js';
import { balancesOfOwner, type OwnerBalance } from '../ledger/ledger-queries.js';
import { FIAT_CURRENCIES, type FiatCurrency } from '../money/assets.js';
import { heldAndOwedOf } from './card-risk/user-money.js';

export interface FiatBalance {
  currency: FiatCurrency;
  /** Received and settled, less what is reserved for payouts under way. */
  availableMinor: bigint;
  /** Received by bank debit and not yet settled. */
  pendingMinor: bigint;
  /** Received by card and not yet released (DESIGN §16). */
  heldMinor: bigint;
  /** What the user owes peerpay after a refund or dispute took back more than it held. */
  owedMinor: bigint;
}

/** `read`: the balances already read with the caller's key (one round trip), when the route asked for them. */
export async function fiatBalances(deps: { db: Db }, accountId: number, read?: readonly OwnerBalance[]): Promise<FiatBalance[]> {
  const [owned, risk] = await Promise.all([read ?? balancesOfOwner(deps.db, accountId), heldAndOwedOf(deps.db, accountId)]);
  return FIAT_CURRENCIES.map((currency) => {
    const found = owned.find((b) => b.asset === currency);
    const other = risk.find((r) => r.currency === currency);
    return {
      currency,
      availableMinor: found?.availableMinor ?? 0n,
      pendingMinor: found?.pendingMinor ?? 0n,
      heldMinor: other?.heldMinor ?? 0n,
      owedMinor: other?.owedMinor ?? 0n,
    };
  });
}
