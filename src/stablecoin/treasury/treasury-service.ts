// The hot wallet's treasury as a service: the operator's view, the warnings (with the memory of
// when each was last given) and the transfers to the cold address.
import type { FastifyBaseLogger } from 'fastify';
import { runColdTransfers } from './cold-transfers.js';
import { readTreasury, type TreasuryView } from './treasury-view.js';
import { createWarningMemory, watchTreasury } from './treasury-watch.js';

export type TreasuryDeps = Parameters<typeof readTreasury>[0] & Parameters<typeof runColdTransfers>[0];

export interface Treasury {
  /** The hot wallet, custody, fees and waiting withdrawals (GET /admin/treasury). */
  view(): Promise<TreasuryView>;
  /** Logs the low-gas and below-floor warnings that are due; returns how many it gave. */
  watch(log?: Pick<FastifyBaseLogger, 'warn'>): Promise<number>;
  /** Moves what is above the hot wallet's ceiling to the cold address; returns how many it handled. */
  runColdTransfers(): Promise<number>;
}

export function createTreasury(deps: TreasuryDeps): Treasury {
  const withMemory = { ...deps, treasuryWarnings: createWarningMemory() };
  return {
    view: () => readTreasury(deps),
    watch: (log) => watchTreasury(withMemory, log),
    runColdTransfers: () => runColdTransfers(deps),
  };
}
