// The caller's token balances: what it can spend now (posted balance less reserved debits, e.g. a
// withdrawal under way), zero for a token never held.
import { balancesOfOwner, type OwnerBalance } from '../ledger/ledger-queries.js';
import { TOKENS, type Token } from '../money/assets.js';
import type { Db } from '../db/database.js';

/** `read`: the balances already read with the caller's key (one round trip), when the route asked for them. */
export async function stablecoinBalances(
  deps: { db: Db },
  accountId: number,
  read?: readonly OwnerBalance[],
): Promise<Record<Token, bigint>> {
  const owned = read ?? (await balancesOfOwner(deps.db, accountId));
  const out = {} as Record<Token, bigint>;
  for (const token of TOKENS) out[token] = owned.find((b) => b.asset === token)?.availableMinor ?? 0n;
  return out;
}
