// What the console lists for the people who run peerpay (DESIGN §18): withdrawals by state,
// failing webhook endpoints, and what users owe. Every list is bounded.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { FiatCurrency, Token } from '../../money/assets.js';
import { RECENT_ATTEMPTS } from '../accounts/account-detail-repository.js';

/** At most this many rows in one list. */
export const MAX_REPORT_ROWS = 100;

export type WithdrawalState = 'waiting' | 'pending' | 'failed';

export interface WithdrawalRow {
  id: string;
  accountId: number;
  handle: string;
  currency: Token;
  grossMinor: bigint;
  netMinor: bigint;
  address: string;
  status: string;
  failureCode: string | null;
  txHash: string | null;
  waitingSince: Date | null;
  createdAt: Date;
}

/**
 * `waiting`: pending for want of hot-wallet money (its partial index); `pending`: every withdrawal
 * not yet complete, oldest first (its partial index); `failed`: the latest failures.
 */
export async function withdrawalsIn(db: Db, state: WithdrawalState): Promise<WithdrawalRow[]> {
  let query = db
    .selectFrom('withdrawals as w')
    .innerJoin('accounts as a', 'a.id', 'w.account_id')
    .select(['w.id', 'w.account_id', 'a.handle', 'w.currency', 'w.gross', 'w.net', 'w.address', 'w.status'])
    .select(['w.failure_code', 'w.tx_hash', 'w.waiting_since', 'w.created_at']);
  if (state === 'failed') query = query.where('w.status', '=', 'failed').orderBy('w.created_at', 'desc');
  else query = query.where('w.status', '=', 'pending').orderBy('w.created_at');
  if (state === 'waiting') query = query.where('w.waiting_since', 'is not', null);
  const rows = await query.limit(MAX_REPORT_ROWS).execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    handle: r.handle,
    currency: r.currency,
    grossMinor: r.gross,
    netMinor: r.net,
    address: r.address,
    status: r.status,
    failureCode: r.failure_code,
    txHash: r.tx_hash,
    waitingSince: r.waiting_since,
    createdAt: r.created_at,
  }));
}

export interface FailingEndpointRow {
  id: string;
  accountId: number;
  handle: string;
  url: string;
  status: string;
  failingSince: Date;
  /** Failed attempts among its latest RECENT_ATTEMPTS. */
  recentFailures: number;
  lastError: string | null;
  lastStatusCode: number | null;
  lastAttemptAt: Date | null;
}

/** Endpoints failing now (failing_since set), longest failing first, with their failures and latest error. */
export async function failingEndpoints(db: Db): Promise<FailingEndpointRow[]> {
  // Each endpoint's attempts are read newest first on their (endpoint_id, id) index, a bounded number.
  const rows = await sql<{
    id: string;
    account_id: number;
    handle: string;
    url: string;
    status: string;
    failing_since: Date;
    failed: string;
    error: string | null;
    status_code: number | null;
    attempted_at: Date | null;
  }>`
    select w.id, w.account_id, a.handle, w.url, w.status, w.failing_since,
           (select count(*) from (select x.succeeded from webhook_attempts x where x.endpoint_id = w.id
                                   order by x.id desc limit ${RECENT_ATTEMPTS}) recent
             where not recent.succeeded)::text as failed,
           last.error, last.status_code, last.attempted_at
      from webhook_endpoints w
      join accounts a on a.id = w.account_id
      left join lateral (select y.error, y.status_code, y.attempted_at from webhook_attempts y
                          where y.endpoint_id = w.id and not y.succeeded order by y.id desc limit 1) last on true
     where w.failing_since is not null and w.status <> 'deleted'
     order by w.failing_since
     limit ${MAX_REPORT_ROWS}`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    handle: r.handle,
    url: r.url,
    status: r.status,
    failingSince: new Date(r.failing_since),
    recentFailures: Number(r.failed),
    lastError: r.error,
    lastStatusCode: r.status_code,
    lastAttemptAt: r.attempted_at === null ? null : new Date(r.attempted_at),
  }));
}

export interface DebtRow {
  accountId: number;
  currency: FiatCurrency;
  owedMinor: bigint;
}

/** What users owe peerpay (their receivables below zero, DESIGN §16), largest first. */
export async function openDebts(db: Db): Promise<DebtRow[]> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['code', 'asset', 'balance'])
    .where('kind', '=', 'receivable')
    .where('balance', '<', 0n)
    .orderBy('balance')
    .limit(MAX_REPORT_ROWS)
    .execute();
  // The receivable's code names its debtor: platform:receivable:<currency>:<account id>.
  return rows.map((r) => ({ accountId: Number(r.code.split(':')[3]), currency: r.asset as FiatCurrency, owedMinor: -r.balance }));
}

export interface PaidPayoutRow {
  id: string;
  accountId: number;
  handle: string;
  currency: FiatCurrency;
  amountMinor: bigint;
  processorRef: string | null;
  createdAt: Date;
}

/** The latest paid payouts: what an admin may reverse. */
export async function latestPaidPayouts(db: Db): Promise<PaidPayoutRow[]> {
  const rows = await db
    .selectFrom('payouts as p')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .select(['p.id', 'p.account_id', 'a.handle', 'p.currency', 'p.amount', 'p.processor_ref', 'p.created_at'])
    .where('p.status', '=', 'paid')
    .orderBy('p.created_at', 'desc')
    .limit(MAX_REPORT_ROWS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    handle: r.handle,
    currency: r.currency as FiatCurrency,
    amountMinor: r.amount,
    processorRef: r.processor_ref,
    createdAt: r.created_at,
  }));
}
