// Built-in HD wallet provider. Every key is derived from the master seed, so wallets need no
// storage of their own and are recovered from the seed alone:
//   m/44'/60'/0'/0/{accountIndex}  users' deposit addresses
//   m/44'/60'/1'/0/0               the hot wallet
//   m/44'/60'/2'/0/0               the sandbox tokens' owner
import { HDKey, privateKeyToAccount } from 'viem/accounts';
import { bytesToHex, type LocalAccount } from 'viem';
import { sha256Hex } from '../../platform/ids.js';
import type { WalletProvider } from './wallet-provider.js';

const MAX_INDEX = 2 ** 31 - 1; // non-hardened BIP-32 child index

export function createHdWalletProvider(masterSeed: Uint8Array): WalletProvider {
  const root = HDKey.fromMasterSeed(masterSeed);
  const accountAt = (path: string): LocalAccount => {
    const child = root.derive(path);
    if (!child.privateKey) throw new Error('HD derivation gave no private key');
    return privateKeyToAccount(bytesToHex(child.privateKey));
  };
  const depositSigner = (accountIndex: number): LocalAccount => {
    if (!Number.isInteger(accountIndex) || accountIndex < 0 || accountIndex > MAX_INDEX) {
      throw new RangeError(`wallet index out of range: ${accountIndex}`);
    }
    return accountAt(`m/44'/60'/0'/0/${accountIndex}`);
  };
  return {
    walletFor(accountIndex) {
      const address = depositSigner(accountIndex).address;
      // The id names the wallet without revealing its derivation path.
      return { walletId: `wal_${sha256Hex(address.toLowerCase()).slice(0, 24)}`, address };
    },
    depositSigner,
    hotWallet: accountAt("m/44'/60'/1'/0/0"),
    sandboxTokenOwner: accountAt("m/44'/60'/2'/0/0"),
  };
}
