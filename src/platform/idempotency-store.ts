// Stored Idempotency-Key records (DESIGN §5), scoped to the account of the API key that sent them.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export type ClaimResult =
  { kind: 'claimed' } | { kind: 'replay'; status: number; body: string } | { kind: 'in_progress' } | { kind: 'mismatch' };

/**
 * Claims `key` for a new request, or says what became of an earlier one. A claim whose request died
 * without answering (the process crashed) can be taken over once its lease is over; services keep
 * their own natural keys so that such a retry finds, rather than repeats, what was done.
 */
export async function claimKey(
  db: Db,
  input: { accountId: number; key: string; requestHash: string; leaseMs: number },
): Promise<ClaimResult> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ account_id: input.accountId, key: input.key, request_hash: input.requestHash, state: 'in_progress' })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return { kind: 'claimed' };
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('account_id', '=', input.accountId)
    .where('key', '=', input.key)
    .executeTakeFirst();
  if (!existing) return claimKey(db, input); // deleted in between (a failed first attempt): try again
  if (existing.request_hash !== input.requestHash) return { kind: 'mismatch' };
  if (existing.state === 'completed')
    return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
  const takenOver = await sql<{ key: string }>`
    update idempotency_keys set locked_at = now()
     where account_id = ${input.accountId} and key = ${input.key} and state = 'in_progress'
       and locked_at < now() - make_interval(secs => ${input.leaseMs / 1000})
    returning key`.execute(db);
  return takenOver.rows.length > 0 ? { kind: 'claimed' } : { kind: 'in_progress' };
}

export async function completeKey(db: Db, input: { accountId: number; key: string; status: number; body: string }): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'completed', response_status: input.status, response_body: input.body })
    .where('account_id', '=', input.accountId)
    .where('key', '=', input.key)
    .execute();
}

/** Forgets a claim whose request failed on our side, so that a retry runs again. */
export async function releaseKey(db: Db, input: { accountId: number; key: string }): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', input.accountId)
    .where('key', '=', input.key)
    .where('state', '=', 'in_progress')
    .execute();
}

/**
 * Forgets an in-progress claim of this very request (same key, same body) that claimKey may have
 * stored before its connection was lost. Should it be a concurrent twin's live claim instead, a
 * third attempt may then run beside that twin: the services' natural keys make that safe, as
 * they do a takeover after the lease.
 */
export async function releaseUncertainClaim(db: Db, input: { accountId: number; key: string; requestHash: string }): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', input.accountId)
    .where('key', '=', input.key)
    .where('state', '=', 'in_progress')
    .where('request_hash', '=', input.requestHash)
    .execute();
}

/** Deletes records older than `olderThan`, at most `limit` at a time. Returns how many went. */
export async function deleteExpiredKeys(db: Db, olderThan: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where created_at < ${olderThan} limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
