// Credits deposits to users' deposit addresses; see stablecoin/deposits/deposit-watcher.ts. A
// reorganisation deeper than the confirmation window makes every round throw, which the job runner
// logs as an error each time, until an operator has reconciled.
import type { DepositWatching } from '../stablecoin/deposits/deposit-watching.js';
import type { Job } from './job.js';

export function createDepositWatcherJob({ deposits }: { deposits: DepositWatching }): Job {
  return {
    name: 'deposit-watcher',
    chain: true,
    async run() {
      const round = await deposits.watch();
      return round.credited;
    },
  };
}
