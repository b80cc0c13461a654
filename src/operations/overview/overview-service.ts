// The Overview page's figures (DESIGN §18), built once by the composition root: the treasury as
// /admin/treasury reads it (hot wallet, committed, cold, books against chain custody, users'
// balances, fees, the last custody check, withdrawals waiting), readiness as /health/ready reads
// it, and the backlogs.
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { checkReadiness, type Readiness } from '../../health/readiness-service.js';
import type { Clock } from '../../platform/clock.js';
import type { Lifecycle } from '../../platform/lifecycle.js';
import { readTreasury, type TreasuryView } from '../../stablecoin/treasury/treasury-view.js';
import { readBacklogs, type Backlogs } from './backlogs.js';

export interface OverviewFigures {
  treasury: TreasuryView;
  readiness: Readiness;
  backlogs: Backlogs;
}

export interface Overview {
  read(): Promise<OverviewFigures>;
}

export function createOverview(deps: {
  db: Db;
  chain: ChainConnection;
  wallets: WalletProvider;
  config: Config;
  clock: Clock;
  lifecycle: Lifecycle;
}): Overview {
  return {
    async read() {
      const [treasury, readiness, backlogs] = await Promise.all([readTreasury(deps), checkReadiness(deps), readBacklogs(deps.db)]);
      return { treasury, readiness, backlogs };
    },
  };
}
