// Moves credited deposits from deposit addresses to the hot wallet; see stablecoin/sweeps/sweep-service.ts.
import { runSweeps } from '../stablecoin/sweeps/sweep-service.js';
import type { Job } from './job.js';

/** Sweeps looked at per phase of a round; the rest wait for the next round. */
const BATCH = 20;

export const sweepJob: Job = {
  name: 'deposit-sweeps',
  chain: true,
  async run(deps) {
    const round = await runSweeps(deps, BATCH);
    return round.started + round.sent + round.confirmed + round.ended;
  },
};
