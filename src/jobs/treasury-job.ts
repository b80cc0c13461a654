// The hot wallet's gas and floors (warnings) and its ceiling (the excess goes cold); see
// stablecoin/treasury/treasury-watch.ts and cold-transfers.ts.
import type { Treasury } from '../stablecoin/treasury/treasury-service.js';
import type { Job } from './job.js';

export function createTreasuryJob({ treasury }: { treasury: Pick<Treasury, 'watch' | 'runColdTransfers'> }): Job {
  return {
    name: 'treasury',
    chain: true,
    async run(log) {
      const warnings = await treasury.watch(log);
      return warnings + (await treasury.runColdTransfers());
    },
  };
}
