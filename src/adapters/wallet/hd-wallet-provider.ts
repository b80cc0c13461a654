// Built-in HD wallet provider: each account's deposit key is derived from the master seed on the
// BIP-44 path m/44'/60'/0'/0/{accountIndex}, so wallets need no storage of their own and are
// recovered from the seed alone.
import { HDKey } from 'viem/accounts';
import { privateKeyToAccount } from 'viem/accounts';
import { bytesToHex } from 'viem';
import { sha256Hex } from '../../platform/ids.js';
import type { Wallet, WalletProvider } from './wallet-provider.js';

const MAX_INDEX = 2 ** 31 - 1; // non-hardened BIP-32 child index

export function createHdWalletProvider(masterSeed: Uint8Array): WalletProvider {
  const root = HDKey.fromMasterSeed(masterSeed);
  return {
    walletFor(accountIndex) {
      if (!Number.isInteger(accountIndex) || accountIndex < 0 || accountIndex > MAX_INDEX) {
        throw new RangeError(`wallet index out of range: ${accountIndex}`);
      }
      const child = root.derive(`m/44'/60'/0'/0/${accountIndex}`);
      if (!child.privateKey) throw new Error('HD derivation gave no private key');
      const address = privateKeyToAccount(bytesToHex(child.privateKey)).address;
      // The id names the wallet without revealing its derivation path.
      return { walletId: `wal_${sha256Hex(address.toLowerCase()).slice(0, 24)}`, address };
    },
  };
}
