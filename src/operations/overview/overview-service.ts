// The Overview page's figures (DESIGN §18), built once by the composition root: the treasury as
// /admin/treasury reads it (hot wallet, committed, cold, books against chain custody, users'
// balances, fees, the last custody check, withdrawals waiting), readiness as /health/ready reads
// it, and the backlogs.
import type { Db } from '../../db/database.js';
import type { Readiness } from '../../health/readiness-service.js';
import type { TreasuryView } from '../../stablecoin/treasury/treasury-view.js';
import type { Health } from '../../health/health-service.js';
import type { Treasury } from '../../stablecoin/treasury/treasury-service.js';
import { readBacklogs, type Backlogs } from './backlogs.js';

export interface OverviewFigures {
  treasury: TreasuryView;
  readiness: Readiness;
  backlogs: Backlogs;
}

export interface Overview {
  read(): Promise<OverviewFigures>;
}

export function createOverview(deps: { db: Db; treasury: Pick<Treasury, 'view'>; health: Pick<Health, 'readiness'> }): Overview {
  return {
    async read() {
      const [treasury, readiness, backlogs] = await Promise.all([deps.treasury.view(), deps.health.readiness(), readBacklogs(deps.db)]);
      return { treasury, readiness, backlogs };
    },
  };
}
