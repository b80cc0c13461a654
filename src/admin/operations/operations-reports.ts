// The console's operational lists (DESIGN §18): withdrawals by state, failing webhook endpoints,
// debts and paid payouts. Built once in the composition root.
import type { Db } from '../../db/database.js';
import {
  failingEndpoints,
  latestPaidPayouts,
  openDebts,
  withdrawalsIn,
  type DebtRow,
  type FailingEndpointRow,
  type PaidPayoutRow,
  type WithdrawalRow,
  type WithdrawalState,
} from './operations-repository.js';

export interface OperationsReports {
  withdrawals(state: WithdrawalState): Promise<WithdrawalRow[]>;
  failingEndpoints(): Promise<FailingEndpointRow[]>;
  debts(): Promise<DebtRow[]>;
  paidPayouts(): Promise<PaidPayoutRow[]>;
}

export function createOperationsReports(deps: { db: Db }): OperationsReports {
  const { db } = deps;
  return {
    withdrawals: (state) => withdrawalsIn(db, state),
    failingEndpoints: () => failingEndpoints(db),
    debts: () => openDebts(db),
    paidPayouts: () => latestPaidPayouts(db),
  };
}
