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
  // One statement: the event and, when it is new, its deliveries (due at once; the delivery job
  // claims them with FOR UPDATE SKIP LOCKED in any process). A data-modifying WITH runs whether or
  // not the final SELECT reads it.
  const inserted = await sql<{ seq: bigint }>`
    with event as (
      insert into events (id, account_id, type, subject_id, data, created_at)
      values (${id}, ${event.accountId}, ${event.type}, ${event.subjectId}, ${JSON.stringify(event.data)}::jsonb, ${event.now})
      on conflict (account_id, type, subject_id) do nothing
      returning seq
    ), deliveries as (
      insert into webhook_deliveries (endpoint_id, event_seq, status, next_attempt_at, created_at)
      select w.id, event.seq, 'pending', ${event.now}, ${event.now}
        from event join webhook_endpoints w on w.account_id = ${event.accountId} and w.status = 'enabled'
       where w.events is null or w.events @> jsonb_build_array(${event.type}::text)
    )
    select seq from event`.execute(trx);
  return inserted.rows.length > 0 ? id : null;
}
