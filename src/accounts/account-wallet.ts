// An account's stablecoin wallet. With WALLET_PROVIDER=self it is derived from the account id and
// recorded in the registration's own transaction. With circle it is made at Circle after that
// transaction commits (a network call is never made inside one), with an idempotency key derived
// from the account id: a Circle call that fails leaves the account without a wallet only until the
// next look, which asks Circle again with the same key and so gets the same wallet, never a second
// one. The next looks are the registration retried (a sign-in), GET /account/wallet, GET
// /stablecoin/deposit-address and a funding link; the answer meanwhile is 503 service_unavailable.
import type { Address } from 'viem';
import { CircleApiError } from '../adapters/circle/circle-port.js';
import type { Wallet, WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import { AppError } from '../platform/errors.js';
import * as repo from './accounts-repository.js';

/** The account's wallet, made and recorded now if it has none; `existing` says which. */
export async function ensureAccountWallet(
  deps: { db: Db; wallets: WalletProvider },
  accountId: number,
): Promise<Wallet & { existing: boolean }> {
  const account = await repo.findAccountById(deps.db, accountId);
  if (!account) throw new AppError('unauthorized', 'The account of this key no longer exists.');
  if (account.walletId && account.depositAddress)
    return { walletId: account.walletId, address: account.depositAddress as Address, existing: true };
  const wallet = await createWalletOrRefuse(deps.wallets, accountId);
  await deps.db.transaction().execute((trx) => repo.setWallet(trx, accountId, wallet));
  return { ...wallet, existing: false };
}

/** The account's deposit address: derived (self) or the Circle wallet's, made now if it has none yet. */
export async function accountDepositAddress(deps: { db: Db; wallets: WalletProvider }, accountId: number): Promise<Address> {
  if (deps.wallets.provider === 'self') return deps.wallets.walletFor(accountId).address;
  return (await ensureAccountWallet(deps, accountId)).address;
}

async function createWalletOrRefuse(wallets: WalletProvider, accountId: number): Promise<Wallet> {
  try {
    return await wallets.createWallet(accountId);
  } catch (error) {
    if (!(error instanceof CircleApiError)) throw error;
    throw new AppError(
      'service_unavailable',
      'The wallet provider did not make the stablecoin wallet now; try again shortly (the same wallet is made, once).',
    );
  }
}
