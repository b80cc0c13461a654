// The hot wallet's gas and floors (warnings) and its ceiling (the excess goes cold); see
// stablecoin/treasury/treasury-watch.ts and cold-transfers.ts.
import { runColdTransfers } from '../stablecoin/treasury/cold-transfers.js';
import { watchTreasury } from '../stablecoin/treasury/treasury-watch.js';
import type { Job } from './job.js';

export const treasuryJob: Job = {
  name: 'treasury',
  chain: true,
  async run(deps, log) {
    const warnings = await watchTreasury(deps, log);
    return warnings + (await runColdTransfers(deps));
  },
};
