// Tests that sign with peerpay's own keys (the hot wallet, a deposit key) run with WALLET_PROVIDER=self.
import type { SelfWalletProvider, WalletProvider } from '../../src/adapters/wallet/wallet-provider.js';

export function selfWallets(wallets: WalletProvider): SelfWalletProvider {
  if (wallets.provider !== 'self') throw new Error('this test signs with keys derived from the master seed: WALLET_PROVIDER=self');
  return wallets;
}
