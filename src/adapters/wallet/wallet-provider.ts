// The wallet provider creates and holds users' stablecoin wallets and peerpay's treasury
// (WALLET_PROVIDER, DESIGN §19). `self`: every key derived from the master seed (hd-wallet-provider.ts).
// `circle`: Circle developer-controlled wallets hold every user's key and the treasury's; peerpay
// asks Circle to move them (circle-wallet-provider.ts) and holds only a gas-only relay key for x402.
// Signers are viem LocalAccounts: they sign without handing out their private key.
import type { Address, LocalAccount } from 'viem';
import type { CircleApi } from '../circle/circle-port.js';

export interface Wallet {
  walletId: string;
  /** Polygon address for deposits, EIP-55 checksummed. */
  address: `0x${string}`;
}

interface Wallets {
  /** A new account's wallet: the same account always gets the same wallet (self: derived; circle: Circle's idempotency key). */
  createWallet(accountId: number): Promise<Wallet>;
  /** The treasury (the hot wallet's role): receives sweeps, pays withdrawals and cold transfers, receives x402 payments. */
  readonly hotWallet: { readonly address: Address };
  /** The key that signs what peerpay sends itself through the outbox: self, the hot wallet (everything); circle, x402 relays only (gas, no user money). */
  readonly relayer: LocalAccount;
  /** The address that names the master seed in the installation identity: the seed's hot wallet key's, whatever the provider. */
  readonly seedAddress: Address;
  /** Owner and minter of the sandbox tokens (embedded chain only). */
  readonly sandboxTokenOwner: LocalAccount;
}

export interface SelfWalletProvider extends Wallets {
  readonly provider: 'self';
  /** The wallet of the account with this index; the same index always gives the same wallet. */
  walletFor(accountIndex: number): Wallet;
  /** The key of that wallet's deposit address, which signs sweeps of its deposits. */
  depositSigner(accountIndex: number): LocalAccount;
  readonly hotWallet: LocalAccount;
}

/** Circle's wallets as peerpay uses them: the API, the wallet set, the treasury wallet. */
export interface CircleCustody {
  readonly api: CircleApi;
  readonly walletSetId: string;
  readonly treasuryWalletId: string;
  readonly accountType: 'SCA' | 'EOA';
}

export interface CircleWalletProvider extends Wallets {
  readonly provider: 'circle';
  readonly circle: CircleCustody;
}

export type WalletProvider = SelfWalletProvider | CircleWalletProvider;
