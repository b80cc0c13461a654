// How a group commit writes internal stablecoin transfers (ledger/group-commit.ts): the records of
// all its members in one statement (each under its Idempotency-Key, the record's natural key),
// each inserted one's ledger operation checked in memory in member order against the balances
// the batch locked, the records of those refused for their balance taken back in one statement,
// then the ledger rows of all the others in one statement and their events in one. However many
// transfers share the batch, that is four statements, five when one is refused (more only when a
// refused member's Idempotency-Key was also sent by another member of the same batch).
import { recordEvents } from '../events/record-event.js';
import type { MemberPlan, Outcome } from '../ledger/group-commit.js';
import { insufficientBalance, stageOperation, type LedgerBatch } from '../ledger/ledger-batch.js';
import type { Trx } from '../ledger/ledger.js';
import { assert } from '../platform/errors.js';
import { stablecoinTransferEvents } from './stablecoin-events.js';
import { transferAccounts, transferOperation } from './stablecoin-ledger.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';
import { deleteTransfers, insertTransfers } from './stablecoin-transfers-repository.js';

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
 */
export async function writeTransferBatch(
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
