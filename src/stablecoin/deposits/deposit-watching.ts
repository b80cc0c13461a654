// The deposit watcher as a service: one round over the chain's new blocks.
import { watchDeposits, type WatchRound } from './deposit-watcher.js';

export type DepositWatchingDeps = Parameters<typeof watchDeposits>[0];

export interface DepositWatching {
  /** One bounded round: credits the deposits it finds final. */
  watch(): Promise<WatchRound>;
}

export function createDepositWatching(deps: DepositWatchingDeps): DepositWatching {
  return { watch: () => watchDeposits(deps) };
}
