// GET /stablecoin/deposit-address: where the caller receives USDC or EURC from outside peerpay.
// peerpay runs on one chain, Polygon PoS; the contract names it `MATIC`. A missing `chain` means
// Polygon too (it is the only one), and `POLYGON` is accepted as its other common name; any other
// chain is refused rather than answered with a Polygon address that would lose the tokens.
import type { Address } from 'viem';
import { TOKENS, type Token } from '../../money/assets.js';
import { AppError } from '../../platform/errors.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import { accountDepositAddress } from '../../accounts/account-wallet.js';
import type { Db } from '../../db/database.js';

const POLYGON_NAMES = ['MATIC', 'POLYGON'];

export interface DepositAddress {
  address: Address;
  chain: 'MATIC';
  network: 'polygon';
  tokens: Token[];
}

export async function depositAddressFor(
  deps: { db: Db; wallets: WalletProvider },
  input: { accountId: number; chain: string | undefined },
): Promise<DepositAddress> {
  if (input.chain !== undefined && !POLYGON_NAMES.includes(input.chain.trim().toUpperCase())) {
    throw new AppError(
      'unsupported_chain',
      `Deposits are received on Polygon only (chain=MATIC); "${input.chain.slice(0, 32)}" is not supported. Tokens sent on another chain would be lost.`,
    );
  }
  return { address: await accountDepositAddress(deps, input.accountId), chain: 'MATIC', network: 'polygon', tokens: [...TOKENS] };
}
