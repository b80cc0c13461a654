// Built-in HD wallet provider. Every key is derived from the master seed, so wallets need no
// storage of their own and are recovered from the seed alone:
//   m/44'/60'/0'/0/{accountIndex}  users' deposit addresses
//   m/44'/60'/1'/0/0               the hot wallet
//   m/44'/60'/2'/0/0               the sandbox tokens' owner
//   m/44'/60'/3'/0/0               WALLET_PROVIDER=circle: the x402 relay (gas only), unless FACILITATOR_KEY_FILE
import { HDKey, privateKeyToAccount } from 'viem/accounts';
import { bytesToHex, type LocalAccount } from 'viem';
import { sha256Hex } from '../../platform/ids.js';
import { depositAddressDeriver } from './deposit-addresses.js';
import type { SelfWalletProvider } from './wallet-provider.js';

const MAX_INDEX = 2 ** 31 - 1; // non-hardened BIP-32 child index

export function createHdWalletProvider(masterSeed: Uint8Array): SelfWalletProvider {
  const root = HDKey.fromMasterSeed(masterSeed);
  const signerOf = (key: HDKey): LocalAccount => {
    if (!key.privateKey) throw new Error('HD derivation gave no private key');
    return privateKeyToAccount(bytesToHex(key.privateKey));
  };
  // The deposit addresses' parent, derived once: each address is then one step from it instead of
  // five from the root (a start of a new database derives hundreds, see startup/seed-use.ts).
  const depositParent = root.derive("m/44'/60'/0'/0");
  const checkIndex = (accountIndex: number): void => {
    if (!Number.isInteger(accountIndex) || accountIndex < 0 || accountIndex > MAX_INDEX) {
      throw new RangeError(`wallet index out of range: ${accountIndex}`);
    }
  };
  const depositSigner = (accountIndex: number): LocalAccount => {
    checkIndex(accountIndex);
    return signerOf(depositParent.deriveChild(accountIndex));
  };
  // An address needs only the parent's public half (deposit-addresses.ts).
  const { publicKey, chainCode } = depositParent;
  if (!publicKey || !chainCode) throw new Error('HD derivation gave no public key');
  const depositAddress = depositAddressDeriver({ publicKey, chainCode }, (accountIndex) => depositSigner(accountIndex).address);
  const walletFor = (accountIndex: number) => {
    checkIndex(accountIndex);
    const address = depositAddress(accountIndex);
    // The id names the wallet without revealing its derivation path.
    return { walletId: `wal_${sha256Hex(address.toLowerCase()).slice(0, 24)}`, address };
  };
  const hotWallet = signerOf(root.derive("m/44'/60'/1'/0/0"));
  return {
    provider: 'self',
    walletFor,
    createWallet: async (accountId) => walletFor(accountId),
    depositSigner,
    hotWallet,
    relayer: hotWallet,
    seedAddress: hotWallet.address,
    sandboxTokenOwner: signerOf(root.derive("m/44'/60'/2'/0/0")),
  };
}

/** WALLET_PROVIDER=circle without FACILITATOR_KEY_FILE: the x402 relay's key, which holds gas and never user money. */
export function seedRelayer(masterSeed: Uint8Array): LocalAccount {
  const key = HDKey.fromMasterSeed(masterSeed).derive("m/44'/60'/3'/0/0");
  if (!key.privateKey) throw new Error('HD derivation gave no private key');
  return privateKeyToAccount(bytesToHex(key.privateKey));
}
