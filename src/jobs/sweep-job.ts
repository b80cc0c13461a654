// Moves credited deposits from deposit addresses to the hot wallet; see stablecoin/sweeps/sweep-service.ts.
import type { DepositSweeps } from '../stablecoin/sweeps/deposit-sweeps.js';
import type { Job } from './job.js';

/** Sweeps looked at per phase of a round; the rest wait for the next round. */
const BATCH = 20;

export function createSweepJob({ sweeps }: { sweeps: DepositSweeps }): Job {
  return {
    name: 'deposit-sweeps',
    chain: true,
    async run() {
      const round = await sweeps.run(BATCH);
      return round.started + round.sent + round.confirmed + round.ended;
    },
  };
}
