import type { Address } from 'viem';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
// The relayer key pays the gas of what peerpay signs itself: with self, the hot wallet (every sweep,
// withdrawal and relay); with circle, the x402 relay key (Circle's Gas Station pays the SCA
// wallets' gas). With circle and CIRCLE_ACCOUNT_TYPE=EOA the treasury wallet pays its own gas too,
// for withdrawals, cold transfers and the users' wallets' top-ups (eoa-gas.ts), so it is watched
// beside the relayer. Native balances are read from the node; below HOT_WALLET_MIN_GAS_WEI the
// operator must top the payer up before sends start failing.

export interface GasStatus {
  /** The lowest balance among the gas payers, and whose it is. */
  balanceWei: bigint;
  payer: Address;
  minWei: bigint;
  low: boolean;
}

export async function readGasStatus(deps: { chain: ChainConnection; wallets: WalletProvider; config: Config }): Promise<GasStatus> {
  const minWei = deps.config.treasury.minGasWei;
  let lowest: { payer: Address; balanceWei: bigint } | undefined;
  for (const payer of gasPayers(deps.wallets)) {
    const balanceWei = await deps.chain.chain.getNativeBalance(payer);
    if (!lowest || balanceWei < lowest.balanceWei) lowest = { payer, balanceWei };
  }
  const { payer, balanceWei } = lowest!;
  return { balanceWei, payer, minWei, low: balanceWei < minWei };
}

/** The addresses whose native balance pays for what peerpay sends. */
export function gasPayers(wallets: WalletProvider): Address[] {
  const payers = [wallets.relayer.address];
  if (wallets.provider === 'circle' && wallets.circle.accountType === 'EOA' && wallets.hotWallet.address !== wallets.relayer.address)
    payers.push(wallets.hotWallet.address);
  return payers;
}

/** For logs (never the public readiness answer): wei as a decimal of the native coin (POL), exact. */
export function formatWei(wei: bigint): string {
  const whole = wei / 10n ** 18n;
  const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
