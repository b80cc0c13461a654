// Idempotency-Key records written by the transaction that does the work (decision 0050), for
// routes whose service keeps the key as the natural key of a row it writes in a group commit's
// batch (POST /agent/transfer). The record is inserted already completed, with the answer the
// request will get, beside that row: its claim and its answer in one insert, under the batch's
// commit, instead of an autocommit before the work and another after. A record that is there
// already (a replay, or the key taken by another route) stops the work, and the request is
// answered from that record, as the claim before the work would have answered it.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';

/** The answer a request will get, stored under its key with the work, in the same transaction. */
export interface AnswerInTransaction {
  accountId: number;
  key: string;
  requestHash: string;
  status: number;
  body: string;
}

/** A stored record as a later request with the same key finds it. */
export interface StoredKeyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  status: number | null;
  body: string | null;
}

/**
 * The insert of completed records, as the data-modifying WITH clause `name` of a larger statement,
 * returning a row per record inserted (one whose key is there already is not). One text whatever
 * the number of records (decision 0049).
 */
export function keyAnswersClause(name: string, answers: readonly AnswerInTransaction[]): RawBuilder<unknown> {
  return sql`${sql.id(name)} as (${insertAnswers(sql`unnest(
        ${answers.map((a) => a.accountId)}::integer[], ${answers.map((a) => a.key)}::text[],
        ${answers.map((a) => a.requestHash)}::text[], ${answers.map((a) => a.status)}::integer[],
        ${answers.map((a) => a.body)}::text[]) as a(account_id, key, request_hash, status, body)`)})`;
}

/** The insert of completed records from `source`, a relation `a(account_id, key, request_hash, status, body)`. */
export function insertAnswers(source: RawBuilder<unknown>): RawBuilder<{ account_id: number; key: string }> {
  return sql`insert into idempotency_keys (account_id, key, request_hash, state, response_status, response_body)
    select a.account_id, a.key, a.request_hash, 'completed', a.status, a.body from ${source}
    on conflict (account_id, key) do nothing
    returning account_id, key`;
}

/** The record stored under (account, key), if any. */
export async function findKeyRecord(db: Db, accountId: number, key: string): Promise<StoredKeyRecord | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_status', 'response_body'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? { requestHash: row.request_hash, state: row.state, status: row.response_status, body: row.response_body } : undefined;
}
