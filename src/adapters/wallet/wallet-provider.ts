// The wallet provider creates and holds users' stablecoin wallets and peerpay's own keys. peerpay
// asks it for a wallet per account; the built-in provider derives everything from a master seed.
// Signers are viem LocalAccounts: they sign without handing out their private key.
import type { LocalAccount } from 'viem';

export interface Wallet {
  walletId: string;
  /** Polygon address for deposits, EIP-55 checksummed. */
  address: `0x${string}`;
}

export interface WalletProvider {
  /** The wallet of the account with this index; the same index always gives the same wallet. */
  walletFor(accountIndex: number): Wallet;
  /** The key of that wallet's deposit address, which signs sweeps of its deposits. */
  depositSigner(accountIndex: number): LocalAccount;
  /** peerpay's hot wallet: receives sweeps, sends withdrawals, relays authorizations, pays gas. */
  readonly hotWallet: LocalAccount;
  /** Owner and minter of the sandbox tokens (embedded chain only). */
  readonly sandboxTokenOwner: LocalAccount;
}
