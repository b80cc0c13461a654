// Books against custody (books/custody-check.ts): at most once a minute across all processes, on
// the chain jobs' tick; a shortfall is an error log, custody_checks (readiness) and a metric.
import { checkCustodyIfDue } from '../books/custody-check.js';
import type { Job } from './job.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** What a round of this job uses. */
export type CustodyCheckJobDeps = { chain: ChainConnection; clock: Clock; config: Config; db: Db; wallets: WalletProvider };

/** How old the last check may be before the next one runs. */
export const CUSTODY_CHECK_INTERVAL_MS = 60_000;

export const custodyCheckJob: Job<CustodyCheckJobDeps> = {
  name: 'custody-check',
  chain: true,
  run: (deps, log) => checkCustodyIfDue(deps, { intervalMs: CUSTODY_CHECK_INTERVAL_MS, ...(log ? { log } : {}) }),
};
