// What GET /health and GET /health/ready report, as a service: the service's mode, database,
// clock and (sandbox) chain, after a query that shows the database answers; and the readiness checks.
import type { Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import { checkReadiness, type Readiness } from './readiness-service.js';

export type HealthDeps = Parameters<typeof checkReadiness>[0] & { database: Pick<Database, 'kind'>; clock: Clock };

export interface HealthSummary {
  mode: 'sandbox' | 'live';
  database: Database['kind'];
  time: string;
  /** Sandbox mode only: the embedded chain, for clients and tests to read directly. */
  chain?: { id: number; rpcUrl: string; tokens: { USDC: string; EURC: string } };
}

export interface Health {
  summary(): Promise<HealthSummary>;
  readiness(): Promise<Readiness>;
}

export function createHealth(deps: HealthDeps): Health {
  const { config, chain } = deps;
  return {
    async summary() {
      await deps.db.selectFrom('sandbox_clock').select('id').execute();
      return {
        mode: config.mode,
        database: deps.database.kind,
        time: deps.clock.now().toISOString(),
        ...(config.mode === 'sandbox' ? { chain: { id: chain.chainId, rpcUrl: chain.rpcUrl, tokens: { ...chain.tokens } } } : {}),
      };
    },
    readiness: () => checkReadiness(deps),
  };
}
