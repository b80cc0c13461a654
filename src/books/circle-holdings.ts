// WALLET_PROVIDER=circle: what Circle says peerpay's wallets hold (GET /v1/w3s/wallets/{id}/balances
// of the treasury wallet and every user's wallet), per token. The custody check counts the lesser of
// this and the chain's figure, so that the books must be covered by both Circle's word and the chain.
// Circle's balances are read one wallet after another, not at one block: a sweep completing between
// two reads can hide its tokens from both, so a figure below the books is read again before it stands.
import { isAddressEqual } from 'viem';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { CircleWalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import { TOKENS, type Token } from '../money/assets.js';

/** A bound on one check, as for the chain's deposit addresses (custody-check.ts). */
const MAX_WALLETS = 100_000;
/** Balance reads in flight at once. */
const READS_AT_ONCE = 8;

export async function circleHoldings(deps: {
  db: Db;
  chain: Pick<ChainConnection, 'tokens'>;
  wallets: CircleWalletProvider;
}): Promise<Map<Token, bigint>> {
  const walletIds = [deps.wallets.circle.treasuryWalletId, ...(await userWalletIds(deps.db))];
  const held = new Map<Token, bigint>(TOKENS.map((token) => [token, 0n]));
  for (let start = 0; start < walletIds.length; start += READS_AT_ONCE) {
    const batch = walletIds.slice(start, start + READS_AT_ONCE);
    for (const balances of await Promise.all(batch.map((id) => deps.wallets.circle.api.getBalances(id)))) {
      for (const balance of balances) {
        const token = TOKENS.find((t) => isAddressEqual(deps.chain.tokens[t], balance.tokenAddress));
        if (token !== undefined) held.set(token, held.get(token)! + balance.amount);
      }
    }
  }
  return held;
}

async function userWalletIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('accounts')
    .select('wallet_id')
    .where('wallet_id', 'is not', null)
    .where('deposit_address', 'is not', null)
    .orderBy('id')
    .limit(MAX_WALLETS + 1)
    .execute();
  if (rows.length > MAX_WALLETS)
    throw new Error(`custody check: more than ${MAX_WALLETS} Circle wallets; the check needs another way to read them`);
  return rows.map((r) => r.wallet_id!);
}
