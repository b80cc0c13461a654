import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
// The relayer key pays the gas of what peerpay signs itself: with self, the hot wallet (every sweep,
// withdrawal and relay); with circle, the x402 relay key only (Circle's Gas Station pays the SCA
// wallets' gas). Its native balance is read from the node; below HOT_WALLET_MIN_GAS_WEI the operator
// must top it up before sends start failing.

export interface GasStatus {
  balanceWei: bigint;
  minWei: bigint;
  low: boolean;
}

export async function readGasStatus(deps: { chain: ChainConnection; wallets: WalletProvider; config: Config }): Promise<GasStatus> {
  const balanceWei = await deps.chain.chain.getNativeBalance(deps.wallets.relayer.address);
  const minWei = deps.config.treasury.minGasWei;
  return { balanceWei, minWei, low: balanceWei < minWei };
}

/** For logs (never the public readiness answer): wei as a decimal of the native coin (POL), exact. */
export function formatWei(wei: bigint): string {
  const whole = wei / 10n ** 18n;
  const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
