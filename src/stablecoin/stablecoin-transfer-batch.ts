// How a group commit writes internal stablecoin transfers (ledger/group-commit.ts). Usually
// together: each member's ledger operation checked in memory in member order against the balances
// the batch locked, then the records, ledger rows and events of all those that fit in the ledger's
// one statement. Carefully when a member is alone or two share an Idempotency-Key: the records of
// all members in one statement (each under its key, the record's natural key), each inserted
// one's operation checked, the records of those refused taken back, then the ledger rows and
// the events. Together is two statements for the whole batch (lock, write); carefully four or five.
import { accountFrozen, frozenAmong } from '../compliance/freezes/freeze-checks.js';
import { eventsClause, recordEvents } from '../events/record-event.js';
import type { MemberPlan, Outcome, WrittenMembers } from '../ledger/group-commit.js';
import { insufficientBalance, stageOperation, type LedgerBatch } from '../ledger/ledger-batch.js';
import type { Trx } from '../ledger/ledger.js';
import { assert } from '../platform/errors.js';
import { stablecoinTransferEvents } from './stablecoin-events.js';
import { transferAccounts, transferOperation } from './stablecoin-ledger.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';
import { deleteTransfers, insertTransfers, transferRecordsClause } from './stablecoin-transfers-repository.js';

/** One transfer request in a batch, with the handles its events name. */
export interface TransferMember extends MemberPlan {
  readonly intent: StablecoinTransfer;
  readonly senderHandle: string;
  readonly recipientHandle: string;
}

export function transferMember(intent: StablecoinTransfer, handles: { sender: string; recipient: string }): TransferMember {
  return { accounts: transferAccounts(intent), intent, senderHandle: handles.sender, recipientHandle: handles.recipient };
}

/**
 * Each member's outcome: the transfer written, null when its sender already had a transfer under
 * its Idempotency-Key (the caller looks that one up), or insufficient_balance.
 *
 * A batch of several members whose keys all differ is staged first and written in the ledger's
 * own statement (records, ledger rows and events: one round trip). Should a record's key turn out
 * to be taken already (a replay that reached the batch), that statement fails and the members run
 * again alone. A member alone, or a batch in which two members share a key, is written carefully:
 * records first, so that a replay is known before anything is staged.
 */
export async function writeTransferBatch(
  trx: Trx,
  batch: LedgerBatch,
  members: readonly TransferMember[],
): Promise<WrittenMembers<StablecoinTransfer | null>> {
  // The senders' freezes, read under a key-share lock on their accounts rows held to the commit:
  // a freeze committing meanwhile waits for this batch, or this batch waited for it and sees it
  // (decision 0035). The lock conflicts only with a freeze's (and other FOR UPDATE writers', none of
  // which wait on ledger rows), so taking it after the batch's ledger locks cannot deadlock.
  const frozen = await frozenAmong(
    trx,
    members.map((m) => m.intent.senderAccountId),
    'other',
  );
  if (frozen.size === 0) return writeOpenBatch(trx, batch, members);
  const open = members.filter((m) => !frozen.has(m.intent.senderAccountId));
  const written = open.length > 0 ? await writeOpenBatch(trx, batch, open) : { outcomes: [] };
  let next = 0;
  const outcomes = members.map((m): Outcome<StablecoinTransfer | null> =>
    frozen.has(m.intent.senderAccountId) ? { ok: false, error: accountFrozen('other') } : written.outcomes[next++]!,
  );
  return { ...written, outcomes };
}

/** writeTransferBatch for members whose senders may send. */
async function writeOpenBatch(
  trx: Trx,
  batch: LedgerBatch,
  members: readonly TransferMember[],
): Promise<WrittenMembers<StablecoinTransfer | null>> {
  const keys = members.filter((m) => m.intent.idempotencyKey !== null).map((m) => keyOf(m.intent));
  if (members.length === 1 || new Set(keys).size < keys.length) {
    return { outcomes: await writeCarefully(trx, batch, members) };
  }
  return writeTogether(trx, batch, members);
}

/** A keyed member of a batch written together was refused: it may be a replay, which only its record can tell. */
export class KeyedRefusal extends Error {}

function writeTogether(trx: Trx, batch: LedgerBatch, members: readonly TransferMember[]): WrittenMembers<StablecoinTransfer | null> {
  const outcomes: Outcome<StablecoinTransfer | null>[] = [];
  const written: TransferMember[] = [];
  for (const member of members) {
    if (stageOperation(batch, transferOperation(member.intent))) {
      written.push(member);
      outcomes.push({ ok: true, value: member.intent });
    } else if (member.intent.idempotencyKey !== null) {
      // Refused for its balance, or a replay of a transfer written earlier (whose record would
      // answer it)? The members run again alone, where the record is written first.
      throw new KeyedRefusal('a keyed member of the batch was refused for its balance');
    } else {
      outcomes.push({ ok: false, error: insufficientBalance() });
    }
  }
  if (written.length === 0) return { outcomes };
  return {
    outcomes,
    alongside: {
      clauses: [
        transferRecordsClause(
          trx,
          written.map((m) => m.intent),
        ),
        eventsClause(written.flatMap((m) => stablecoinTransferEvents(m.intent, { sender: m.senderHandle, recipient: m.recipientHandle }))),
      ],
      // Every record is new: one whose key was taken already fails the statement.
      expectedRows: new Map([['transfer_records', written.length]]),
    },
  };
}

async function writeCarefully(
  trx: Trx,
  batch: LedgerBatch,
  members: readonly TransferMember[],
): Promise<Outcome<StablecoinTransfer | null>[]> {
  const outcomes = new Array<Outcome<StablecoinTransfer | null>>(members.length);
  const written: TransferMember[] = [];
  let round = members.map((_, i) => i);
  // A member whose key an earlier member of the batch took and then lost (refused for its balance)
  // is no replay: it goes into the next round, as if it had come after the batch's other members.
  // Each round settles at least its first member, so there are at most as many rounds as members.
  for (let rounds = 0; round.length > 0; rounds++) {
    assert(rounds < members.length, 'a batch of transfers settles every member');
    const inserted = await insertTransfers(
      trx,
      round.map((i) => members[i]!.intent),
    );
    const refusedIds: string[] = [];
    const refusedKeys = new Set<string>();
    const next: number[] = [];
    for (const i of round) {
      const member = members[i]!;
      if (!inserted.has(member.intent.id)) {
        if (refusedKeys.has(keyOf(member.intent))) next.push(i);
        else outcomes[i] = { ok: true, value: null };
      } else if (stageOperation(batch, transferOperation(member.intent))) {
        written.push(member);
        outcomes[i] = { ok: true, value: member.intent };
      } else {
        refusedIds.push(member.intent.id);
        if (member.intent.idempotencyKey !== null) refusedKeys.add(keyOf(member.intent));
        outcomes[i] = { ok: false, error: insufficientBalance() };
      }
    }
    await deleteTransfers(trx, refusedIds);
    round = next;
  }
  await recordEvents(
    trx,
    written.flatMap((m) => stablecoinTransferEvents(m.intent, { sender: m.senderHandle, recipient: m.recipientHandle })),
  );
  return outcomes;
}

function keyOf(transfer: StablecoinTransfer): string {
  return `${transfer.senderAccountId}/${transfer.idempotencyKey}`;
}
