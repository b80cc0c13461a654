// Sweeps of deposit addresses into the hot wallet, as a service.
import { runSweeps, type SweepRound } from './sweep-service.js';

export type DepositSweepsDeps = Parameters<typeof runSweeps>[0];

export interface DepositSweeps {
  /** One round: starts, sends, confirms or ends at most `limit` sweeps per phase. */
  run(limit: number): Promise<SweepRound>;
}

export function createDepositSweeps(deps: DepositSweepsDeps): DepositSweeps {
  return { run: (limit) => runSweeps(deps, limit) };
}
