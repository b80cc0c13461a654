// SQL for webhook endpoints and the list of their delivery attempts.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { WebhookEndpointsTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';

export interface EndpointRow {
  id: string;
  accountId: number;
  url: string;
  events: string[] | null;
  secretSalt: string;
  status: 'enabled' | 'disabled' | 'deleted';
  createdAt: Date;
}

const COLUMNS = ['id', 'account_id', 'url', 'events', 'secret_salt', 'status', 'created_at'] as const;

function toEndpoint(r: Pick<Selectable<WebhookEndpointsTable>, (typeof COLUMNS)[number]>): EndpointRow {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    events: r.events,
    secretSalt: r.secret_salt,
    status: r.status,
    createdAt: r.created_at,
  };
}

/** Locks the account's row so that two creations cannot both pass the count; returns how many it has. */
export async function countEndpointsForUpdate(trx: Trx, accountId: number): Promise<number> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
  const row = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('status', '<>', 'deleted')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEndpoint(trx: Trx, e: EndpointRow): Promise<void> {
  await trx
    .insertInto('webhook_endpoints')
    .values({
      id: e.id,
      account_id: e.accountId,
      url: e.url,
      events: e.events === null ? null : JSON.stringify(e.events),
      secret_salt: e.secretSalt,
      status: e.status,
      created_at: e.createdAt,
    })
    .execute();
}

export async function listEndpoints(db: Db, accountId: number, limit: number): Promise<EndpointRow[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('status', '<>', 'deleted')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toEndpoint);
}

/** The account's endpoint with this id (never another account's: that is "not found"). */
export async function findEndpoint(db: Db, input: { accountId: number; id: string }): Promise<EndpointRow | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(COLUMNS)
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  return row ? toEndpoint(row) : undefined;
}

/** Deletes the endpoint (kept as a row, so that its attempts stay consistent) and cancels its pending deliveries. */
export async function deleteEndpoint(trx: Trx, input: { accountId: number; id: string; now: Date }): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_endpoints')
    .set({ status: 'deleted' })
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) return false;
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', finished_at: input.now })
    .where('endpoint_id', '=', input.id)
    .where('status', '=', 'pending')
    .execute();
  return true;
}

export interface AttemptRow {
  id: bigint;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
}

/** The endpoint's attempts, newest first, before `beforeId` when given. */
export async function listAttempts(db: Db, input: { endpointId: string; beforeId: bigint | null; limit: number }): Promise<AttemptRow[]> {
  const rows = await sql<{
    id: bigint;
    event_id: string;
    event_type: string;
    attempt: number;
    attempted_at: Date;
    status_code: number | null;
    error: string | null;
    duration_ms: number;
    succeeded: boolean;
  }>`
    select a.id, e.id as event_id, e.type as event_type, a.attempt, a.attempted_at, a.status_code, a.error, a.duration_ms, a.succeeded
      from webhook_attempts a
      join webhook_deliveries d on d.id = a.delivery_id
      join events e on e.seq = d.event_seq
     where a.endpoint_id = ${input.endpointId} ${input.beforeId === null ? sql`` : sql`and a.id < ${input.beforeId}`}
     order by a.id desc
     limit ${input.limit}`.execute(db);
  return rows.rows.map((r) => ({
    id: BigInt(r.id),
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: r.attempt,
    attemptedAt: new Date(r.attempted_at),
    statusCode: r.status_code,
    error: r.error,
    durationMs: r.duration_ms,
    succeeded: r.succeeded,
  }));
}
