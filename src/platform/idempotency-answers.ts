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
 * Splits the answers into rounds in which each (account, key) appears once, in call order. Two
 * answers to one key in one turn (a request and the retry that took over its expired claim) are
 * rare, but one statement cannot apply them one after the other: its parts all see the rows as
 * they were before it.
 */
function roundsOf(answers: readonly KeyAnswer[]): KeyAnswer[][] {
  const seen = new Map<string, number>();
  const rounds: KeyAnswer[][] = [];
  for (const a of answers) {
    const id = `${a.accountId}:${a.key}`; // the account id has no colon, so this names one (account, key)
    const round = seen.get(id) ?? 0;
    seen.set(id, round + 1);
    (rounds[round] ??= []).push(a);
  }
  return rounds;
}

async function recordRound(db: Db, answers: readonly KeyAnswer[]): Promise<void> {
  const values = answers.map((a) =>
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
}

/** Stores or forgets every answer, one statement per round (one, unless a key is answered twice). */
export async function recordAnswers(db: Db, answers: readonly KeyAnswer[]): Promise<void> {
  for (const round of roundsOf(answers)) await recordRound(db, round);
}
