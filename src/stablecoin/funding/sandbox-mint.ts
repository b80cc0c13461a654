// Test tokens on the embedded chain (sandbox mode): the sandbox token owner, derived from the master
// seed, mints them. Used by the faucet test helper and by completed funding links; the deposit
// watcher then credits whatever reaches a deposit address, as it would any transfer.
import type { Address, Hash } from 'viem';
import type { Token } from '../../money/assets.js';
import { AppError, assert } from '../../platform/errors.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';

/** Faucet and funding amounts are at most this, in major units (DESIGN §4's per-operation maximum). */
export const MAX_MINT_MAJOR = 1_000_000n;

export function canMintTestTokens(deps: { chain: ChainConnection }): boolean {
  return deps.chain.sandboxChain !== null;
}

/** Mints and returns the transaction hash once a node has taken the transaction. */
export async function mintTestTokens(
  deps: { chain: ChainConnection; wallets: WalletProvider },
  input: { to: Address; token: Token; amountMinor: bigint },
): Promise<Hash> {
  const sandbox = deps.chain.sandboxChain;
  if (!sandbox)
    throw new AppError(
      'funding_unavailable',
      'Test tokens exist only on the embedded sandbox chain; this service runs against another chain.',
    );
  assert(input.amountMinor > 0n, 'a mint is of a positive amount');
  return sandbox.mint({
    token: deps.chain.tokens[input.token],
    minter: deps.wallets.sandboxTokenOwner,
    to: input.to,
    amount: input.amountMinor,
  });
}
