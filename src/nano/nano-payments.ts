// The pay-per-call micro-endpoints (DESIGN §12) as a service: the status document, one paid call
// (payment asked for, taken, then the answer computed), the three lookups they sell, and the job's
// round over settlements that outlived their request. The x402 terms and facilitator are built once.
import type { AccountQuery } from '../accounts/accounts-service.js';
import { lookupAccount, type LookupAnswer } from './account-lookup.js';
import { searchDirectory, type DirectoryEntry, type DirectoryQuery } from './directory-search.js';
import { createNanoContext, servePaid, type NanoDeps, type PaidAnswer } from './nano-service.js';
import { reconcileX402Payments } from './reconcile-payments.js';
import { statusDocument, type StatusDocument } from './status-document.js';

export type NanoPaymentsDeps = NanoDeps;

/** One paid call: what it sells, where, how the caller pays, and the answer once paid. */
export type PaidCall<T> = Parameters<typeof servePaid<T>>[1];

export interface NanoPayments {
  statusDocument(): StatusDocument;
  serve<T>(input: PaidCall<T>): Promise<PaidAnswer<T>>;
  searchDirectory(query: DirectoryQuery): Promise<DirectoryEntry[]>;
  lookupAccount(query: AccountQuery): Promise<LookupAnswer>;
  /** One round of the job: at most `limit` payments whose settlement outlived their request. */
  reconcile(limit: number): Promise<number>;
}

export function createNanoPayments(deps: NanoPaymentsDeps): NanoPayments {
  const ctx = createNanoContext(deps);
  return {
    statusDocument: () => statusDocument(ctx.terms, deps.config.publicUrl),
    serve: (input) => servePaid(ctx, input),
    searchDirectory: (query) => searchDirectory(deps.db, query),
    lookupAccount: (query) => lookupAccount(deps, query),
    reconcile: (limit) => reconcileX402Payments(deps, limit),
  };
}
