// Moves credited deposits from deposit addresses to the hot wallet; see stablecoin/sweeps/sweep-service.ts.
import { runSweeps } from '../stablecoin/sweeps/sweep-service.js';
import type { Job } from './job.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** What a round of this job uses. */
export type SweepJobDeps = { chain: ChainConnection; clock: Clock; db: Db; wallets: WalletProvider };

/** Sweeps looked at per phase of a round; the rest wait for the next round. */
const BATCH = 20;

export const sweepJob: Job<SweepJobDeps> = {
  name: 'deposit-sweeps',
  chain: true,
  async run(deps) {
    const round = await runSweeps(deps, BATCH);
    return round.started + round.sent + round.confirmed + round.ended;
  },
};
