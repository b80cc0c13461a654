// The one function other features call: records an event inside the caller's transaction, the same
// one that makes the change it describes (a transactional outbox), and queues one delivery per
// enabled webhook endpoint of the account that wants this type. Either the change, its event and
// its deliveries all commit, or none does.
import { sql } from 'kysely';
import type { Trx } from '../ledger/ledger.js';
import { newId } from '../platform/ids.js';
import type { EventType } from './event-types.js';

export interface NewEvent {
  accountId: number;
  type: EventType;
  /**
   * The resource the event is about (a transfer, deposit, withdrawal, payout, link or payment id).
   * An account gets at most one event of a type per subject: a change recorded twice (a replay,
   * a processor webhook racing the job that learnt the same) describes itself once.
   */
  subjectId: string;
  /** The resource as the API shows it (src/http/views). */
  data: Record<string, unknown>;
  now: Date;
}

/** Returns the event's id, or null when this account already has this event for this subject. */
export async function recordEvent(trx: Trx, event: NewEvent): Promise<string | null> {
  const id = newId('evt');
  const inserted = await trx
    .insertInto('events')
    .values({
      id,
      account_id: event.accountId,
      type: event.type,
      subject_id: event.subjectId,
      data: JSON.stringify(event.data),
      created_at: event.now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'type', 'subject_id']).doNothing())
    .returning('seq')
    .executeTakeFirst();
  if (!inserted) return null;
  // Due at once; the delivery job claims it (FOR UPDATE SKIP LOCKED) in any process.
  await sql`
    insert into webhook_deliveries (endpoint_id, event_seq, status, next_attempt_at, created_at)
    select id, ${inserted.seq}, 'pending', ${event.now}, ${event.now}
      from webhook_endpoints
     where account_id = ${event.accountId} and status = 'enabled'
       and (events is null or events @> jsonb_build_array(${event.type}::text))`.execute(trx);
  return id;
}
