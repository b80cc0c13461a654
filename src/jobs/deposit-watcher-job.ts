// Credits deposits to users' deposit addresses; see stablecoin/deposits/deposit-watcher.ts. A
// reorganisation deeper than the confirmation window makes every round throw, which the job runner
// logs as an error each time, until an operator has reconciled.
import { watchDeposits } from '../stablecoin/deposits/deposit-watcher.js';
import type { Job } from './job.js';

/** What a round of this job uses. */
export type DepositWatcherJobDeps = Parameters<typeof watchDeposits>[0];

export const depositWatcherJob: Job<DepositWatcherJobDeps> = {
  name: 'deposit-watcher',
  chain: true,
  async run(deps) {
    const round = await watchDeposits(deps);
    return round.credited;
  },
};
