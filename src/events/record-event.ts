// The one function other features call: records an event inside the caller's transaction, the same
// one that makes the change it describes (a transactional outbox), and queues one delivery per
// enabled webhook endpoint of the account that wants this type. Either the change, its event and
// its deliveries all commit, or none does.
import { sql, type RawBuilder } from 'kysely';
import type { Trx } from '../db/transaction.js';
import { assert } from '../platform/errors.js';
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
  const [id] = await recordEvents(trx, [event]);
  return id ?? null;
}

/** At most this many events in one statement (a group commit records two per transfer). */
export const MAX_EVENTS_PER_STATEMENT = 512;

/**
 * Records `events` in one statement, each as recordEvent would; returns the ids of those that
 * were new (an account's event of a type for a subject it already has is skipped).
 */
export async function recordEvents(trx: Trx, events: readonly NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const inserted = await sql<{ id: string }>`with ${eventsClause(events)} select id from event`.execute(trx);
  return inserted.rows.map((row) => row.id);
}

/**
 * recordEvents' writes as WITH clauses of a larger statement (a group commit's, beside its ledger
 * rows): `event` returns the new events, and `deliveries` queues theirs.
 */
export function eventsClause(events: readonly NewEvent[]): RawBuilder<unknown> {
  assert(events.length > 0 && events.length <= MAX_EVENTS_PER_STATEMENT, 'events of one statement within bound');
  const column = <T>(of: (e: NewEvent) => T): T[] => events.map(of);
  // The events and, for those that are new, their deliveries (due at once; the delivery job
  // claims them with FOR UPDATE SKIP LOCKED in any process). A data-modifying WITH runs whether or
  // not the final SELECT reads it. Each column is one parameter, so the text is the same for any
  // number of events (decision 0049): an array, but the data one JSON array, read element by
  // element beside the others (ROWS FROM zips them in order). As a jsonb[] each document went
  // through pg's array literal, every quote of it escaped in JavaScript and unescaped again by
  // PostgreSQL (decision 0059).
  return sql`event as (
      insert into events (id, account_id, type, subject_id, data, created_at)
      select * from rows from (unnest(${column(() => newId('evt'))}::text[]), unnest(${column((e) => e.accountId)}::integer[]),
                               unnest(${column((e) => e.type)}::text[]), unnest(${column((e) => e.subjectId)}::text[]),
                               jsonb_array_elements(${JSON.stringify(column((e) => e.data))}::jsonb),
                               unnest(${column((e) => e.now.toISOString())}::timestamptz[]))
      on conflict (account_id, type, subject_id) do nothing
      returning id, seq, account_id, type, created_at
    ), deliveries as (
      insert into webhook_deliveries (endpoint_id, event_seq, status, next_attempt_at, created_at)
      select w.id, event.seq, 'pending', event.created_at, event.created_at
        from event join webhook_endpoints w on w.account_id = event.account_id and w.status = 'enabled'
       where w.events is null or w.events @> jsonb_build_array(event.type)
    )`;
}
