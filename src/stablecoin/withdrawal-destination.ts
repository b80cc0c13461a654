// Where a withdrawal goes: the address given, or else the saved default (DESIGN §6); no address and
// no default is 400 no_default_address. Beyond the shape rules of polygon-address.ts (0x + 40 hex,
// EIP-55 when mixed case, never zero), peerpay refuses its own addresses:
// - its hot wallet, which sends withdrawals: the tokens would never leave, yet the ledger would
//   count them as gone, and custody would no longer match the chain;
// - the token contracts: tokens sent to them are stuck for good;
// - any user's deposit address: the tokens would come back as a deposit, after fees and a chain
//   round trip, where POST /agent/transfer does the same at once.
import { getAddress, type Address } from 'viem';
import { AppError } from '../platform/errors.js';
import { parsePolygonAddress } from './polygon-address.js';
import { findWithdrawalAddress } from './withdrawal-address-repository.js';
import { isDepositAddress } from './withdrawals-repository.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';

export type DestinationDeps = { db: Db; wallets: WalletProvider; chain: ChainConnection };

export async function withdrawalDestination(
  deps: DestinationDeps,
  input: { accountId: number; address: string | undefined },
): Promise<Address> {
  if (input.address !== undefined) return checkedDestination(deps, input.address, 'address');
  const saved = await findWithdrawalAddress(deps.db, input.accountId);
  if (saved === null) {
    throw new AppError(
      'no_default_address',
      'No address was given and no default withdrawal address is saved: pass `address`, or save one with PUT /stablecoin/withdrawal-address.',
    );
  }
  return checkedDestination(deps, saved, 'the saved withdrawal address');
}

/**
 * An address a withdrawal may go to, checksummed; 400 invalid_address otherwise. Also used when a
 * default address is saved, so that no address is saved that a withdrawal would then refuse.
 */
export async function checkedDestination(deps: DestinationDeps, raw: string, field: string): Promise<Address> {
  const address = parsePolygonAddress(raw, field);
  if (address === getAddress(deps.wallets.hotWallet.address)) {
    throw new AppError('invalid_address', `${field} is peerpay's own hot wallet; withdraw to an address outside peerpay.`);
  }
  if (Object.values(deps.chain.tokens).some((token) => getAddress(token) === address)) {
    throw new AppError('invalid_address', `${field} is a token contract; tokens sent there are lost.`);
  }
  if (await isDepositAddress(deps.db, address)) {
    throw new AppError(
      'invalid_address',
      `${field} is a peerpay deposit address; to pay a peerpay user use POST /agent/transfer, which is instant.`,
    );
  }
  return address;
}
