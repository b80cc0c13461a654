// The answers to Idempotency-Key claims given in one turn of the event loop, in one statement:
// the answers to keep are stored on their claims, the claims of requests that failed on our side
// are forgotten, with the same conditions as one statement each.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export type KeyAnswer =
  | { kind: 'complete'; accountId: number; key: string; status: number; body: string }
  /** Forgets a claim whose request failed on our side, so that a retry runs again. */
  | { kind: 'release'; accountId: number; key: string };

/**
 * Stores or forgets the answers, in one statement (so that a failure leaves nothing behind), and
 * says which were done: false for an answer to a key answered earlier in the same batch, to be
 * given again after this one. Two answers to one key at once (a request and the retry that took
 * over its expired claim) are rare, and one statement cannot apply them one after the other: its
 * parts all see the rows as they were before it.
 */
export async function recordAnswers(db: Db, answers: readonly KeyAnswer[]): Promise<boolean[]> {
  const seen = new Set<string>();
  const now = answers.map((a) => {
    const id = `${a.accountId}:${a.key}`; // the account id has no colon, so this names one (account, key)
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const values = answers
    .filter((_, i) => now[i])
    .map((a) =>
      a.kind === 'complete'
        ? sql`(${a.accountId}::integer, ${a.key}::text, ${a.status}::integer, ${a.body}::text)`
        : sql`(${a.accountId}::integer, ${a.key}::text, null::integer, null::text)`,
    );
  // A release is an answer without a status. Completing does not check the state: only the
  // request that holds the claim answers it, as with one statement each.
  await sql`
    with answer (account_id, key, status, body) as (values ${sql.join(values)}),
    completed as (
      update idempotency_keys k set state = 'completed', response_status = a.status, response_body = a.body
        from answer a
       where a.status is not null and k.account_id = a.account_id and k.key = a.key)
    delete from idempotency_keys k
     using answer a
     where a.status is null and k.account_id = a.account_id and k.key = a.key and k.state = 'in_progress'`.execute(db);
  return now;
}
