// Stored Idempotency-Key records (DESIGN §5), scoped to the account of the API key that sent them.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import { coalesce, LOADS_IN_FLIGHT, type Coalesced } from './coalesce.js';
import { claimKeys, type ClaimInput, type ClaimResult } from './idempotency-claims.js';
import { recordAnswers, type KeyAnswer } from './idempotency-answers.js';

export type { ClaimResult } from './idempotency-claims.js';

// Claims and answers of one turn of the event loop share a statement, and so, outside a
// transaction, one commit and one WAL flush; alone, a call waits only for the end of its turn.
const MAX_BATCH = 100;

interface Coalescers {
  /** Null: claim again (the key changed while the statement ran). */
  claim: Coalesced<ClaimInput, ClaimResult | null>;
  /** False: answer again (the key was answered earlier in the same statement's batch). */
  answer: Coalesced<KeyAnswer, boolean>;
}

/** The stored keys of one database, each call coalesced with the others of its turn. */
export interface IdempotencyStore {
  /**
   * Claims `key` for a new request, or says what became of an earlier one. A claim whose request
   * died without answering (the process crashed) can be taken over once its lease is over;
   * services keep their own natural keys so that such a retry finds, rather than repeats, what was
   * done. Claims of one turn share one statement; claims of one key in one turn are answered as if
   * made in turn.
   */
  claim(input: ClaimInput): Promise<ClaimResult>;
  /** Stores the answer of the request that holds the claim on `key`, to be replayed to its retries. */
  complete(input: { accountId: number; key: string; status: number; body: string }): Promise<void>;
  /** Forgets a claim whose request failed on our side, so that a retry runs again. */
  release(input: { accountId: number; key: string }): Promise<void>;
  /**
   * Forgets an in-progress claim of this very request (same key, same body) that claim() may have
   * stored, or may still be storing, when its connection was lost. Should it be a concurrent twin's live claim instead, a
   * third attempt may then run beside that twin: the services' natural keys make that safe, as
   * they do a takeover after the lease.
   */
  releaseUncertainClaim(input: { accountId: number; key: string; requestHash: string }): Promise<void>;
  /** The cleanup job's round: deletes at most `limit` records created before `olderThan`. */
  deleteExpired(olderThan: Date, limit: number): Promise<number>;
}

/** Built once per database by the composition root: the coalescers are the store's own. */
export function createIdempotencyStore(db: Db): IdempotencyStore {
  const coalescers = createCoalescers(db);
  // Gives an answer, again in a later batch while an earlier answer to the same key is in the way.
  const answer = async (input: KeyAnswer): Promise<void> => {
    while (!(await coalescers.answer(input)));
  };
  return {
    async claim(input) {
      // Claims of one key that must go again are resolved in call order, so they are made again in order.
      for (;;) {
        const result = await coalescers.claim(input);
        if (result) return result;
      }
    },
    complete: (input) => answer({ kind: 'complete', ...input }),
    release: (input) => answer({ kind: 'release', ...input }),
    releaseUncertainClaim: (input) => releaseUncertainClaim(db, input),
    deleteExpired: (olderThan, limit) => deleteExpiredKeys(db, olderThan, limit),
  };
}

// A claim statement that fails for anything but a lost connection wrote nothing, so each claim is
// tried alone: one bad input does not fail its neighbours. A lost connection fails them all, each
// caller giving back its claim if it was stored, as after a statement of its own. Answers may run
// again whatever the failure, and always do alone: a lost connection often means several dead ones
// in the pool, and one statement for many answers would meet them as one, where a statement each
// draws its own connection; an answer left unrecorded blocks the client's retry for the whole lease.
function createCoalescers(db: Db): Coalescers {
  return {
    claim: coalesce({
      maxBatch: MAX_BATCH,
      maxInFlight: LOADS_IN_FLIGHT,
      load: (claims) => claimKeys(db, claims),
      retryAlone: (e) => !isDatabaseUnavailable(e),
    }),
    answer: coalesce({
      maxBatch: MAX_BATCH,
      maxInFlight: LOADS_IN_FLIGHT,
      load: (answers) => recordAnswers(db, answers),
      retryAlone: () => true,
    }),
  };
}

/**
 * A claim statement whose connection was lost may still be running on its backend, which learns of
 * the loss only when it answers, after its commit: a delete issued now would not see the claim
 * being inserted and would leave it to block the client's retry for the whole lease. An insert of
 * the same key waits for that insert to commit or roll back (a unique index's conflict with a row
 * not yet committed), and the delete after it, in the same transaction but with a snapshot of its
 * own, sees the outcome; a claim that took over an expired lease is a row update, which the delete
 * waits for by its row lock. Only a statement that the backend has not yet begun to run when this
 * transaction commits can still land after it.
 */
async function releaseUncertainClaim(db: Db, input: { accountId: number; key: string; requestHash: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`insert into idempotency_keys (account_id, key, request_hash, state)
              values (${input.accountId}, ${input.key}, ${input.requestHash}, 'in_progress')
              on conflict (account_id, key) do nothing`.execute(trx);
    await trx
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', input.accountId)
      .where('key', '=', input.key)
      .where('state', '=', 'in_progress')
      .where('request_hash', '=', input.requestHash)
      .execute();
  });
}

/** Deletes records older than `olderThan`, at most `limit` at a time. Returns how many went. */
export async function deleteExpiredKeys(db: Db, olderThan: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where created_at < ${olderThan} limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
