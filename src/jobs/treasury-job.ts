// The hot wallet's gas and floors (warnings) and its ceiling (the excess goes cold); see
// stablecoin/treasury/treasury-watch.ts and cold-transfers.ts.
import { runColdTransfers } from '../stablecoin/treasury/cold-transfers.js';
import { watchTreasury } from '../stablecoin/treasury/treasury-watch.js';
import type { Job } from './job.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { WarningMemory } from '../stablecoin/treasury/treasury-watch.js';

/** What a round of this job uses. */
export type TreasuryJobDeps = {
  treasuryWarnings: WarningMemory;
  chain: ChainConnection;
  clock: Clock;
  config: Config;
  db: Db;
  wallets: WalletProvider;
};

export const treasuryJob: Job<TreasuryJobDeps> = {
  name: 'treasury',
  chain: true,
  async run(deps, log) {
    const warnings = await watchTreasury(deps, log);
    return warnings + (await runColdTransfers(deps));
  },
};
