// SQL for the durable delivery queue: claiming due deliveries across processes, and recording
// each attempt with its consequence in one transaction.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { WebhookDeliveriesTable } from '../db/schema.js';

export interface ClaimedDelivery {
  id: bigint;
  endpointId: string;
  attempts: number;
  url: string;
  secretSalt: string;
  eventId: string;
  eventType: string;
  eventData: unknown;
  eventCreatedAt: Date;
}

/**
 * Leases up to `limit` due deliveries (FOR UPDATE SKIP LOCKED, committed at once, so no lock is
 * held while sending), at most `perEndpoint` per endpoint counting those other workers hold now.
 * A worker that dies loses its lease when it runs out and the delivery is due again: at least once.
 */
export async function claimDueDeliveries(
  db: Db,
  input: { now: Date; leaseMs: number; limit: number; perEndpoint: number },
): Promise<ClaimedDelivery[]> {
  const until = new Date(input.now.getTime() + input.leaseMs);
  const rows = await sql<Pick<Selectable<WebhookDeliveriesTable>, 'id' | 'endpoint_id' | 'attempts'>>`
    with candidates as (
      select id, endpoint_id, next_attempt_at from webhook_deliveries
       where status = 'pending' and next_attempt_at <= ${input.now}
         and (locked_until is null or locked_until < ${input.now})
       order by next_attempt_at, id
       limit ${input.limit * 4}
       for update skip locked
    ), ranked as (
      select c.id,
             row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id)
               + (select count(*) from webhook_deliveries x
                   where x.endpoint_id = c.endpoint_id and x.status = 'pending' and x.locked_until >= ${input.now}) as place
        from candidates c
    ), chosen as (
      select id from ranked where place <= ${input.perEndpoint} order by id limit ${input.limit}
    )
    update webhook_deliveries d set locked_until = ${until}
      from chosen where d.id = chosen.id
    returning d.id, d.endpoint_id, d.attempts`.execute(db);
  if (rows.rows.length === 0) return [];
  const details = await sql<{
    id: bigint;
    url: string;
    secret_salt: string;
    event_id: string;
    type: string;
    data: unknown;
    created_at: Date;
  }>`
    select d.id, w.url, w.secret_salt, e.id as event_id, e.type, e.data, e.created_at
      from webhook_deliveries d
      join webhook_endpoints w on w.id = d.endpoint_id
      join events e on e.seq = d.event_seq
     where d.id in (${sql.join(rows.rows.map((r) => BigInt(r.id)))})`.execute(db);
  const byId = new Map(details.rows.map((r) => [String(r.id), r]));
  return rows.rows.flatMap((r) => {
    const d = byId.get(String(r.id));
    if (!d) return [];
    return [
      {
        id: BigInt(r.id),
        endpointId: r.endpoint_id,
        attempts: r.attempts,
        url: d.url,
        secretSalt: d.secret_salt,
        eventId: d.event_id,
        eventType: d.type,
        eventData: typeof d.data === 'string' ? (JSON.parse(d.data) as unknown) : d.data,
        eventCreatedAt: new Date(d.created_at),
      },
    ];
  });
}

/** Gives a claimed delivery back untried: due again at the next round, its attempts unchanged. */
export async function releaseLease(db: Db, deliveryId: bigint): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ locked_until: null })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .execute();
}

export interface AttemptOutcome {
  deliveryId: bigint;
  endpointId: string;
  attempt: number;
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  /** When to try again; null when this was the last attempt (or it succeeded). */
  retryAt: Date | null;
  /** An endpoint failing since before this is disabled. */
  disableIfFailingSince: Date;
}

/** Records the attempt, moves the delivery on, and keeps the endpoint's failure streak (disabling it after too long). */
export async function recordAttempt(db: Db, o: AttemptOutcome): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: o.deliveryId,
        endpoint_id: o.endpointId,
        attempt: o.attempt,
        attempted_at: o.at,
        status_code: o.statusCode,
        error: o.error,
        duration_ms: o.durationMs,
        succeeded: o.succeeded,
      })
      .execute();
    const status = o.succeeded ? 'delivered' : o.retryAt === null ? 'failed' : 'pending';
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempts: o.attempt,
        locked_until: null,
        ...(o.retryAt ? { next_attempt_at: o.retryAt } : {}),
        ...(status !== 'pending' ? { finished_at: o.at } : {}),
      })
      .where('id', '=', o.deliveryId)
      .where('status', '=', 'pending')
      .execute();
    if (o.succeeded) {
      await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', o.endpointId).execute();
      return;
    }
    const endpoint = await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql`coalesce(failing_since, ${o.at})` })
      .where('id', '=', o.endpointId)
      .where('status', '=', 'enabled')
      .returning('failing_since')
      .executeTakeFirst();
    if (endpoint?.failing_since && endpoint.failing_since <= o.disableIfFailingSince) {
      // Failing for days: disabled, and what it still had pending is given up (DESIGN §13).
      await trx.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('id', '=', o.endpointId).execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', finished_at: o.at, locked_until: null })
        .where('endpoint_id', '=', o.endpointId)
        .where('status', '=', 'pending')
        .execute();
    }
  });
}
