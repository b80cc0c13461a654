// How a group commit writes internal stablecoin transfers (ledger/group-commit.ts). Usually
// together: each member's ledger operation checked in memory in member order against the balances
// the batch locked, then the records, ledger rows and events of all those that fit in the ledger's
// one statement. Carefully when a member is alone or two share an Idempotency-Key: the records of
// all members in one statement (each under its key, the record's natural key), each inserted
// one's operation checked, the records of those refused taken back, then the ledger rows and
// the events. Each member is checked against its sender's freeze and limits too (DESIGN §17): the
// batch holds every sender's ledger account locked, reads the senders' freezes under a key-share
// lock on their accounts rows, and one statement reads all the senders' volume; members are
// checked in memory in member order, and the volume of those written goes out in the ledger's
// statement. Together is four statements for the whole batch (lock, freezes, read volume, write);
// carefully six or seven. A member under an Idempotency-Key also writes its key record, completed
// with its answer, beside its transfer record (decision 0050): in the ledger's statement together,
// in the record's insert carefully; a refused member's key record goes with its transfer record.
import { accountFrozen, frozenAmong } from '../compliance/freezes/freeze-checks.js';
import { eventsClause, recordEvents } from '../events/record-event.js';
import type { BatchWriter, GroupCommit, MemberPlan, Outcome, WrittenMembers } from '../ledger/group-commit.js';
import type { AccountLimits, LimitBatch, Movement } from '../compliance/limits/limits-service.js';
import { withCounted, type Alongside } from '../ledger/ledger-writes.js';
import { insufficientBalance, stageOperation, type LedgerBatch } from '../ledger/ledger-batch.js';
import type { Trx } from '../db/transaction.js';
import { assert } from '../platform/errors.js';
import { stablecoinTransferEvents } from './stablecoin-events.js';
import { transferAccounts, transferOperation } from './stablecoin-ledger.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';
import { deleteTransfers, insertTransfers, transferRecordsClause } from './stablecoin-transfers-repository.js';
import { keyAnswersClause, type AnswerInTransaction } from '../platform/idempotency-in-transaction.js';

/** One transfer request in a batch, with the handles its events name. */
export interface TransferMember extends MemberPlan {
  readonly intent: StablecoinTransfer;
  readonly senderHandle: string;
  readonly recipientHandle: string;
  /**
   * The answer to store under the intent's Idempotency-Key, written with the record in the batch's
   * transaction (decision 0050); null when the request's key (if any) is claimed and answered
   * outside the batch.
   */
  readonly keyAnswer: AnswerInTransaction | null;
}

/** Internal stablecoin transfers, written in shared transactions (ledger/group-commit.ts). */
export type TransferBatches = GroupCommit<TransferMember, StablecoinTransfer | null>;

export function transferMember(
  intent: StablecoinTransfer,
  handles: { sender: string; recipient: string },
  keyAnswer: AnswerInTransaction | null = null,
): TransferMember {
  assert(
    !keyAnswer || (keyAnswer.key === intent.idempotencyKey && keyAnswer.accountId === intent.senderAccountId),
    'a key answer is stored under its transfer’s key',
  );
  return { accounts: transferAccounts(intent), intent, senderHandle: handles.sender, recipientHandle: handles.recipient, keyAnswer };
}

/** What a member counts towards its sender's limits: the amount, fee included (it is taken from the amount). */
function movementOf(member: TransferMember): Movement {
  const t = member.intent;
  return { accountId: t.senderAccountId, currency: t.currency, amountMinor: t.amountMinor, at: t.createdAt, what: 'transfer' };
}

/**
 * The batch writer of internal transfers. Each member's outcome: the transfer written, null when
 * its sender already had a transfer under its Idempotency-Key (the caller looks that one up),
 * insufficient_balance, or limit_exceeded.
 *
 * A batch of several members whose keys all differ is staged first and written in the ledger's
 * own statement (records, ledger rows, limit volume and events: one round trip). Should a record's
 * key turn out to be taken already (a replay that reached the batch), that statement fails and the
 * members run again alone. A member alone, or a batch in which two members share a key, is written
 * carefully: records first, so that a replay is known before anything is staged.
 */
export function createTransferBatchWriter({ limits }: { limits: AccountLimits }): BatchWriter<TransferMember, StablecoinTransfer | null> {
  return async (trx, batch, members) => {
    // The senders' freezes, read under a key-share lock on their accounts rows held to the commit:
    // a freeze committing meanwhile waits for this batch, or this batch waited for it and sees it
    // (decision 0035). The lock conflicts only with a freeze's (and other FOR UPDATE writers', none
    // of which wait on ledger rows), so taking it after the batch's ledger locks cannot deadlock.
    const frozen = await frozenAmong(
      trx,
      members.map((m) => m.intent.senderAccountId),
      'other',
    );
    if (frozen.size === 0) return writeOpenBatch(trx, batch, limits, members);
    const open = members.filter((m) => !frozen.has(m.intent.senderAccountId));
    const written = open.length > 0 ? await writeOpenBatch(trx, batch, limits, open) : { outcomes: [] };
    let next = 0;
    const outcomes = members.map((m): Outcome<StablecoinTransfer | null> =>
      frozen.has(m.intent.senderAccountId) ? { ok: false, error: accountFrozen('other') } : written.outcomes[next++]!,
    );
    return { ...written, outcomes };
  };
}

/** The batch for members whose senders may send: their limits, then their writes. */
async function writeOpenBatch(
  trx: Trx,
  batch: LedgerBatch,
  limits: AccountLimits,
  members: readonly TransferMember[],
): Promise<WrittenMembers<StablecoinTransfer | null>> {
  const limitBatch = await limits.openBatch(trx, members.map(movementOf));
  const keys = members.filter((m) => m.intent.idempotencyKey !== null).map((m) => keyOf(m.intent));
  if (members.length === 1 || new Set(keys).size < keys.length) {
    return writeCarefully(trx, batch, limitBatch, members);
  }
  return writeTogether(batch, limitBatch, members);
}

/** A member's limit refusal, or null when it fits and its operation was staged (its volume then staged too). */
function stageMember(batch: LedgerBatch, limitBatch: LimitBatch, member: TransferMember): { ok: true } | { ok: false; error: Error } {
  const movement = movementOf(member);
  const refusal = limitBatch.refusal(movement);
  if (refusal) return { ok: false, error: refusal };
  if (!stageOperation(batch, transferOperation(member.intent))) return { ok: false, error: insufficientBalance() };
  limitBatch.stage(movement);
  return { ok: true };
}

/** A keyed member of a batch written together was refused: it may be a replay, which only its record can tell. */
export class KeyedRefusal extends Error {}

function writeTogether(
  batch: LedgerBatch,
  limitBatch: LimitBatch,
  members: readonly TransferMember[],
): WrittenMembers<StablecoinTransfer | null> {
  const outcomes: Outcome<StablecoinTransfer | null>[] = [];
  const written: TransferMember[] = [];
  for (const member of members) {
    const staged = stageMember(batch, limitBatch, member);
    if (staged.ok) {
      written.push(member);
      outcomes.push({ ok: true, value: member.intent });
    } else if (member.intent.idempotencyKey !== null) {
      // Refused for its balance or a limit, or a replay of a transfer written earlier (whose
      // record would answer it)? The members run again alone, where the record is written first.
      throw new KeyedRefusal('a keyed member of the batch was refused');
    } else {
      outcomes.push({ ok: false, error: staged.error });
    }
  }
  if (written.length === 0) return { outcomes };
  const answers = written.flatMap((m) => (m.keyAnswer ? [m.keyAnswer] : []));
  const alongside = withVolume(limitBatch, {
    clauses: [
      transferRecordsClause(written.map((m) => m.intent)),
      eventsClause(written.flatMap((m) => stablecoinTransferEvents(m.intent, { sender: m.senderHandle, recipient: m.recipientHandle }))),
      ...(answers.length > 0 ? [keyAnswersClause('key_answers', answers)] : []),
    ],
    // Every record is new, and so is every key record: one whose key was taken already (a replay,
    // or the key another route's) fails the statement, and the members run again alone.
    expectedRows: new Map([
      ['transfer_records', written.length],
      ...(answers.length > 0 ? [['key_answers', answers.length] as const] : []),
    ]),
  });
  return { outcomes, alongside };
}

/** The written members' limit volume, added to what goes in the ledger's statement. */
function withVolume(limitBatch: LimitBatch, alongside: Alongside): Alongside {
  return withCounted(alongside, limitBatch.clause());
}

async function writeCarefully(
  trx: Trx,
  batch: LedgerBatch,
  limitBatch: LimitBatch,
  members: readonly TransferMember[],
): Promise<WrittenMembers<StablecoinTransfer | null>> {
  const outcomes = new Array<Outcome<StablecoinTransfer | null>>(members.length);
  const written: TransferMember[] = [];
  let round = members.map((_, i) => i);
  // A member whose key an earlier member of the batch took and then lost (refused for its balance)
  // is no replay: it goes into the next round, as if it had come after the batch's other members.
  // Each round settles at least its first member, so there are at most as many rounds as members.
  for (let rounds = 0; round.length > 0; rounds++) {
    assert(rounds < members.length, 'a batch of transfers settles every member');
    round = await writeRound(trx, { batch, limitBatch, members, outcomes, written }, round);
  }
  await recordEvents(
    trx,
    written.flatMap((m) => stablecoinTransferEvents(m.intent, { sender: m.senderHandle, recipient: m.recipientHandle })),
  );
  if (written.length === 0) return { outcomes };
  return { outcomes, alongside: withVolume(limitBatch, { clauses: [], expectedRows: new Map() }) };
}

interface CarefulBatch {
  batch: LedgerBatch;
  limitBatch: LimitBatch;
  members: readonly TransferMember[];
  /** Filled in as members settle. */
  outcomes: Outcome<StablecoinTransfer | null>[];
  written: TransferMember[];
}

/**
 * One round of the careful path: the round's records (and key records) in one statement, then each
 * inserted member's operation checked; returns the members left for the next round. A member not
 * inserted is answered null (its sender has a transfer under the key, or its key record is
 * another request's: the caller looks up what is there), unless a member of this round took its
 * key and lost it.
 */
async function writeRound(trx: Trx, careful: CarefulBatch, round: readonly number[]): Promise<number[]> {
  const { batch, limitBatch, members, outcomes, written } = careful;
  const answers = new Map(round.flatMap((i) => (members[i]!.keyAnswer ? [[members[i]!.intent.id, members[i]!.keyAnswer] as const] : [])));
  const { inserted, answered } = await insertTransfers(
    trx,
    round.map((i) => members[i]!.intent),
    answers,
  );
  const refused: StablecoinTransfer[] = [];
  const refusedKeys = new Set<string>();
  const next: number[] = [];
  for (const i of round) {
    const member = members[i]!;
    if (!inserted.has(member.intent.id)) {
      if (refusedKeys.has(keyOf(member.intent))) next.push(i);
      else outcomes[i] = { ok: true, value: null };
      continue;
    }
    if (member.keyAnswer && !answered.has(member.intent.id)) {
      // Its key record is another request's: this one must not run; the caller answers from that record.
      refused.push(member.intent);
      outcomes[i] = { ok: true, value: null };
      continue;
    }
    const staged = stageMember(batch, limitBatch, member);
    if (staged.ok) {
      written.push(member);
      outcomes[i] = { ok: true, value: member.intent };
    } else {
      refused.push(member.intent);
      if (member.intent.idempotencyKey !== null) refusedKeys.add(keyOf(member.intent));
      outcomes[i] = { ok: false, error: staged.error };
    }
  }
  await deleteTransfers(trx, refused, answered);
  return next;
}

function keyOf(transfer: StablecoinTransfer): string {
  return `${transfer.senderAccountId}/${transfer.idempotencyKey}`;
}
