// Token balances of many addresses at one block, summed: the chain's side of the custody check.
import type { Address } from 'viem';
import type { Token } from '../money/assets.js';
import { assert } from '../platform/errors.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';

/** Balances read at once against the node; the rest wait for the previous ones. */
const READ_CONCURRENCY = 25;

/** What `holders` held of `token` at `blockNumber`, together. */
export async function holdingsAt(
  deps: { chain: ChainConnection },
  input: { token: Token; holders: readonly Address[]; blockNumber: bigint },
): Promise<bigint> {
  const tokenAddress = deps.chain.tokens[input.token];
  let total = 0n;
  for (let i = 0; i < input.holders.length; i += READ_CONCURRENCY) {
    const page = input.holders.slice(i, i + READ_CONCURRENCY);
    const balances = await Promise.all(
      page.map((holder) => deps.chain.chain.getTokenBalance({ token: tokenAddress, holder, blockNumber: input.blockNumber })),
    );
    for (const balance of balances) {
      assert(balance >= 0n, 'a token balance is not negative');
      total += balance;
    }
  }
  return total;
}
