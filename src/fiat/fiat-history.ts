// The fiat history service (DESIGN §21): transfers and ledger entries of an account, paged.
import { transactionHistory, transferHistory } from './fiat-history-service.js';
import type { Db } from '../db/database.js';

export interface FiatHistory {
  transfers(request: Parameters<typeof transferHistory>[1]): ReturnType<typeof transferHistory>;
  transactions(request: Parameters<typeof transactionHistory>[1]): ReturnType<typeof transactionHistory>;
}

export function createFiatHistory(deps: { db: Db }): FiatHistory {
  return {
    transfers: (request) => transferHistory(deps, request),
    transactions: (request) => transactionHistory(deps, request),
  };
}
