// Tells the operator what the hot wallet needs (decision 0019): a warning when its gas is below
// HOT_WALLET_MIN_GAS_WEI or a token below HOT_WALLET_MIN_<TOKEN> (what it holds beyond what the
// outbox has committed), when it becomes so and again every REPEAT_MS while it stays so, so that a
// log-based alert fires without a line every second. The same states are metrics and, for gas, a
// failing `gas` readiness check, read afresh wherever they are asked.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { TOKENS } from '../../money/assets.js';
import { formatMinorTrimmed } from '../../money/amount.js';
import { formatWei, readGasStatus } from './gas-status.js';
import { availableLiquidityMinor } from './hot-wallet-liquidity.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';

type WatchDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; config: Config; clock: Clock; treasuryWarnings: WarningMemory };

const REPEAT_MS = 10 * 60_000;

/** When each warning was last given: kept by the composition root, one per process (createWarningMemory). */
export interface WarningMemory {
  /** Whether to warn now of `key`, which is `low` or not: when it becomes low, then every REPEAT_MS. */
  shouldWarn(key: string, low: boolean, nowMs: number): boolean;
}

export function createWarningMemory(): WarningMemory {
  const warned = new Map<string, number>();
  return {
    shouldWarn(key, low, nowMs) {
      if (!low) {
        warned.delete(key);
        return false;
      }
      const last = warned.get(key);
      if (last !== undefined && nowMs - last < REPEAT_MS) return false;
      warned.set(key, nowMs);
      return true;
    },
  };
}

/** Returns how many warnings it gave. */
export async function watchTreasury(deps: WatchDeps, log?: Pick<FastifyBaseLogger, 'warn'>): Promise<number> {
  const nowMs = Date.now();
  let warnings = 0;
  const gas = await readGasStatus(deps);
  if (deps.treasuryWarnings.shouldWarn('gas', gas.low, nowMs)) {
    warnings++;
    log?.warn(
      { hotWallet: gas.payer, balanceWei: String(gas.balanceWei), minWei: String(gas.minWei) },
      `hot wallet gas is low (${gas.payer}): ${formatWei(gas.balanceWei)} left, below HOT_WALLET_MIN_GAS_WEI (${formatWei(gas.minWei)}); top it up before sends fail`,
    );
  }
  for (const token of TOKENS) {
    const floor = deps.config.treasury.minMinor[token];
    if (floor === undefined) continue;
    const available = await availableLiquidityMinor(deps, deps.db, token);
    if (deps.treasuryWarnings.shouldWarn(`floor:${token}`, available < floor, nowMs)) {
      warnings++;
      log?.warn(
        { hotWallet: deps.wallets.hotWallet.address, token, availableMinor: String(available), floorMinor: String(floor) },
        `hot wallet ${token} is below HOT_WALLET_MIN_${token}: ${formatMinorTrimmed(available, token)} available; top it up`,
      );
    }
  }
  return warnings;
}
