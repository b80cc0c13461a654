// What GET /admin/accounts/{id} reads beside the balances and histories: the profile (no
// secrets), open disputes, webhook endpoints with their failures, and the number of active keys.
// Every list is bounded.
import { ACCOUNT_COLUMNS, toAccount, type AccountRow } from '../../accounts/accounts-repository.js';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import { readFreeze, type Freeze } from '../../compliance/freezes/freezes-repository.js';

/** At most this many of each list (disputes, webhook endpoints). */
export const MAX_DETAIL_ITEMS = 50;

export interface AccountProfileRow extends AccountRow {
  createdAt: Date;
  freeze: Freeze | null;
}

export async function findProfile(db: Db, accountId: number): Promise<AccountProfileRow | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select([...ACCOUNT_COLUMNS, 'created_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...toAccount(row), createdAt: row.created_at, freeze: await readFreeze(db, accountId) };
}

export interface OpenDisputeRow {
  id: string;
  transferId: string;
  /** The account's side of the disputed card payment. */
  role: 'sender' | 'recipient';
  currency: string;
  amountMinor: bigint;
  reason: string;
  openedAt: Date;
}

export async function openDisputesOf(db: Db, accountId: number): Promise<OpenDisputeRow[]> {
  const rows = await db
    .selectFrom('disputes')
    .select(['id', 'transfer_id', 'sender_account_id', 'currency', 'amount', 'reason', 'opened_at'])
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('sender_account_id', '=', accountId), eb('recipient_account_id', '=', accountId)]))
    .orderBy('opened_at', 'desc')
    .limit(MAX_DETAIL_ITEMS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    transferId: r.transfer_id,
    role: r.sender_account_id === accountId ? 'sender' : 'recipient',
    currency: r.currency,
    amountMinor: r.amount,
    reason: r.reason,
    openedAt: r.opened_at,
  }));
}

/** Failures are counted among each endpoint's latest attempts, this many at most. */
export const RECENT_ATTEMPTS = 1000;

export interface EndpointHealthRow {
  id: string;
  url: string;
  status: 'enabled' | 'disabled' | 'deleted';
  failingSince: Date | null;
  /** Failed delivery attempts among its latest RECENT_ATTEMPTS. */
  recentFailures: number;
  createdAt: Date;
}

export async function endpointsWithFailures(db: Db, accountId: number): Promise<EndpointHealthRow[]> {
  // The attempts are read newest first on their (endpoint_id, id) index, a bounded number each.
  const rows = await sql<
    Pick<Selectable<WebhookEndpointsTable>, 'id' | 'url' | 'status' | 'failing_since' | 'created_at'> & { failed: string }
  >`
    select w.id, w.url, w.status, w.failing_since, w.created_at,
           (select count(*) from (select a.succeeded from webhook_attempts a where a.endpoint_id = w.id
                                   order by a.id desc limit ${RECENT_ATTEMPTS}) recent
             where not recent.succeeded)::text as failed
      from webhook_endpoints w
     where w.account_id = ${accountId} and w.status <> 'deleted'
     order by w.created_at desc
     limit ${MAX_DETAIL_ITEMS}`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    url: r.url,
    status: r.status,
    failingSince: r.failing_since,
    recentFailures: Number(r.failed),
    createdAt: r.created_at,
  }));
}

export async function activeKeyCount(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
