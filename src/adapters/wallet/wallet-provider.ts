// The wallet provider creates and holds users' stablecoin wallets. peerpay asks it for a wallet per
// account; the built-in provider derives them from a master seed.
export interface Wallet {
  walletId: string;
  /** Polygon address for deposits, EIP-55 checksummed. */
  address: `0x${string}`;
}

export interface WalletProvider {
  /** The wallet of the account with this index; the same index always gives the same wallet. */
  walletFor(accountIndex: number): Wallet;
}
