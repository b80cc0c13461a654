// How a group commit records the intents of fiat transfers (ledger/group-commit.ts): the intent's
// transaction of many new transfers shared, one BEGIN and one COMMIT for all of them. No ledger
// account moves here (the members declare none); the locks, in the order every fiat send takes
// them: the senders' `accounts` rows FOR NO KEY UPDATE in id order, reading their freezes in the
// same statement (a freeze's FOR UPDATE waits for them, decision 0035), then the senders' limit
// volume (decision 0036).
//
// Each member is checked in memory in member order, a frozen sender or one beyond its limits
// refused alone (nothing recorded for it), and the intents of the others are written with their
// limit volume in one statement. Should an intent's key turn out to be taken already (a replay
// racing its first request), that statement fails and the members run again alone. Two members
// sharing a key are never written together: the batch fails, and they run alone.
//
// A batch of one with an Idempotency-Key is written the same way (decision 0060; until then it
// was recorded as before the group commit: lock, insert, then the limits). Its key may be taken,
// which only the insert tells: then the batch fails with IntentKeyTaken, nothing of it written,
// and the caller records the intent in a transaction of its own, which answers null for a taken
// key before any limit is checked (fiat-transfer-service.ts).
//
// A member with an Idempotency-Key that its limits refuse, alone or beside others, is answered
// IntentKeyTaken, not the refusal (decision 0062): the volume that refuses it may be its own first
// request's, committed after this request read its standing, so it too is recorded in a
// transaction of its own, which finds that transfer under its key before checking any limit. The
// batch's other members are written as they would have been without it.
import { sql } from 'kysely';
import { accountFrozen, lockedFrozenSenders } from '../compliance/freezes/freeze-checks.js';
import type { AccountLimits, Movement } from '../compliance/limits/limits-service.js';
import type { Trx } from '../db/transaction.js';
import type { BatchWriter, GroupCommit, MemberPlan, Outcome, WrittenMembers } from '../ledger/group-commit.js';
import { limitVolumeOf, type FiatTransfer } from './fiat-transfer.js';
import { newTransfersClause } from './fiat-transfers-repository.js';

export interface IntentMember extends MemberPlan {
  readonly intent: FiatTransfer;
}

/** Transfer intents, recorded in shared transactions: the intent as recorded, or null when its key was taken. */
export type TransferIntents = GroupCommit<IntentMember, FiatTransfer | null>;

export function intentMember(intent: FiatTransfer): IntentMember {
  return { accounts: [], intent };
}

/**
 * A batch met a key taken already: its members run again alone, and a member alone that meets it
 * records its intent in a transaction of its own. A keyed member that its limits refuse is
 * answered it too (it may have met its own first request's volume), and does the same.
 */
export class IntentKeyTaken extends Error {}

function movementOf(intent: FiatTransfer): Movement {
  // Fees included: what leaves the sender's card or bank is the amount and the fee.
  return { ...limitVolumeOf(intent), what: 'transfer' };
}

export function createIntentBatchWriter({ limits }: { limits: AccountLimits }): BatchWriter<IntentMember, FiatTransfer | null> {
  return async (trx, _batch, members) => {
    const keys = members.filter((m) => m.intent.idempotencyKey !== null).map((m) => keyOf(m.intent));
    // Two members sharing a key are never written in one transaction: the batch fails, and each runs alone.
    if (new Set(keys).size < keys.length) throw new IntentKeyTaken('two members of the batch share an Idempotency-Key');
    return writeTogether(trx, limits, members);
  };
}

async function writeTogether(
  trx: Trx,
  limits: AccountLimits,
  members: readonly IntentMember[],
): Promise<WrittenMembers<FiatTransfer | null>> {
  const frozen = await lockedFrozenSenders(trx, { senders: members.map((m) => m.intent.senderAccountId) }, 'other');
  const open = members.filter((m) => !frozen.has(m.intent.senderAccountId));
  const limitBatch =
    open.length > 0
      ? await limits.openBatch(
          trx,
          open.map((m) => movementOf(m.intent)),
        )
      : null;
  const written: FiatTransfer[] = [];
  const outcomes = members.map((m): Outcome<FiatTransfer | null> => {
    if (frozen.has(m.intent.senderAccountId)) return { ok: false, error: accountFrozen('other') };
    const movement = movementOf(m.intent);
    const refusal = limitBatch!.refusal(movement);
    // With a key, the volume that refuses it may be its own first request's: its key is checked first, alone.
    if (refusal && m.intent.idempotencyKey !== null) {
      return { ok: false, error: new IntentKeyTaken('a keyed intent beyond its limits is checked for its key alone') };
    }
    if (refusal) return { ok: false, error: refusal };
    limitBatch!.stage(movement);
    written.push(m.intent);
    return { ok: true, value: m.intent };
  });
  if (written.length === 0) return { outcomes };
  const volume = limitBatch!.clause();
  const clauses = [newTransfersClause('intents_added', written), ...(volume ? [volume.clause] : [])];
  const counted = await sql<{ intents: string }>`
    with ${sql.join(clauses, sql`, `)} select (select count(*) from intents_added)::text as intents`.execute(trx);
  if (Number(counted.rows[0]!.intents) !== written.length) throw new IntentKeyTaken('an intent of the batch met its key taken');
  return { outcomes };
}

function keyOf(intent: FiatTransfer): string {
  return `${intent.senderAccountId}/${intent.idempotencyKey}`;
}
