// Books against custody as a service: the job's round, a check when the last one is old enough.
import type { FastifyBaseLogger } from 'fastify';
import { checkCustodyIfDue, type CustodyCheckDeps } from './custody-check.js';

export interface CustodyChecks {
  /** Checks every token when the last check (by any process) is older than `intervalMs`; returns the tokens checked. */
  checkIfDue(input: { intervalMs: number; log?: Pick<FastifyBaseLogger, 'error'> }): Promise<number>;
}

export function createCustodyChecks(deps: CustodyCheckDeps): CustodyChecks {
  return { checkIfDue: (input) => checkCustodyIfDue(deps, input) };
}
