// SQL for reading and expiring events.
import type { Db } from '../db/database.js';

export interface EventRow {
  seq: bigint;
  id: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

export async function findEventSeq(db: Db, input: { accountId: number; id: string }): Promise<bigint | undefined> {
  const row = await db
    .selectFrom('events')
    .select('seq')
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .executeTakeFirst();
  return row?.seq;
}

/** The account's events after `afterSeq`, oldest first. */
export async function listEventsAfter(db: Db, input: { accountId: number; afterSeq: bigint; limit: number }): Promise<EventRow[]> {
  const rows = await db
    .selectFrom('events')
    .select(['seq', 'id', 'type', 'data', 'created_at'])
    .where('account_id', '=', input.accountId)
    .where('seq', '>', input.afterSeq)
    .orderBy('seq')
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({ seq: r.seq, id: r.id, type: r.type, data: r.data, createdAt: r.created_at }));
}

/** Deletes up to `limit` events created before `before` (their deliveries and attempts go with them). */
export async function deleteEventsBefore(db: Db, input: { before: Date; limit: number }): Promise<number> {
  const oldest = db.selectFrom('events').select('seq').where('created_at', '<', input.before).orderBy('seq').limit(input.limit);
  const result = await db.deleteFrom('events').where('seq', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
