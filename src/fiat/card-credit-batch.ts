// How a group commit credits card transfers whose charge succeeded (ledger/group-commit.ts): the
// answer's transaction of many card transfers shared, one BEGIN and one COMMIT for all of them.
// Lock order, the one every card-risk movement keeps (card-risk/user-money.ts): the transfer rows
// (their change to completed), then the recipients' `accounts` rows in id order, then the ledger
// accounts (created in code order, locked in id order) — card-credit-locks.ts, then openBatch.
// Each member is then credited in memory, in member order, as `receive` (card-risk/take-back.ts)
// credits one: what its recipient owes is repaid first, read from the receivable's locked balance
// as the members before it left it; the rest goes to `held` (with its hold row) or `available`;
// the fee to the platform. The ledger rows, balances, holds, events and (the sandbox processor's)
// charges of all of them are then written in the ledger's one statement. A credit cannot be refused (processor clearing may go
// negative; every other account only receives), so no member can fail its neighbours; a member
// whose transfer another worker already completed is answered null, and moves nothing.
import { CHARGES_IN_CREDIT_CLAUSE } from '../adapters/processor/payment-processor.js';
import { eventsClause } from '../events/record-event.js';
import type { GroupCommit, Outcome, PreparedBatchWriter } from '../ledger/group-commit.js';
import { stageOperation, type LedgerBatch } from '../ledger/ledger-batch.js';
import { platformAccount, receivableOf, specOf, userAvailable, userHeld, type LedgerAccountKey } from '../ledger/ledger-accounts.js';
import type { TransferInput } from '../ledger/ledger.js';
import { assert } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { holdsClause, type Hold } from './card-risk/holds-repository.js';
import type { ChargedTransfers } from './card-credit-locks.js';
import type { CardCreditMember } from './card-credit-member.js';
import type { CardHold } from './fiat-ledger.js';
import { creditOperationId, type FiatTransfer } from './fiat-transfer.js';
import { transferEvents } from './transfer-events.js';
import type { NewEvent } from '../events/record-event.js';

export type NewHold = Hold & { createdAt: Date };

/** Card credits, written in shared transactions (ledger/group-commit.ts). */
export type CardCredits = GroupCommit<CardCreditMember, FiatTransfer | null>;

export const writeCardCredits: PreparedBatchWriter<CardCreditMember, FiatTransfer | null, ChargedTransfers> = async (
  _trx,
  batch,
  members,
  charged,
) => {
  const outcomes: Outcome<FiatTransfer | null>[] = [];
  const events: NewEvent[] = [];
  const holds: NewHold[] = [];
  const unwritten: NonNullable<CardCreditMember['unwritten']>[] = [];
  for (const member of members) {
    const transfer = charged.get(member);
    // A member this batch did not complete writes nothing, not even its charge: the worker that
    // completed the transfer recorded the charge that paid for it.
    if (!transfer) {
      outcomes.push({ ok: true, value: null });
      continue;
    }
    const hold = stageCredit(batch, transfer, member.hold);
    if (hold) holds.push(hold);
    if (member.unwritten) unwritten.push(member.unwritten);
    events.push(...transferEvents({ transfer, from: 'processing', now: member.now, handles: member.handles }));
    outcomes.push({ ok: true, value: transfer });
  }
  if (charged.size === 0) return { outcomes };
  const clauses = [eventsClause(events)];
  const expectedRows = new Map<string, number>();
  if (holds.length > 0) {
    clauses.push(holdsClause(holds));
    expectedRows.set('holds_added', holds.length);
  }
  if (unwritten.length > 0) {
    // One processor per service: its clause writes every charge of the batch.
    const by = unwritten[0]!.by;
    assert(
      unwritten.every((u) => u.by === by),
      'the charges of a batch are written by one processor',
    );
    clauses.push(by.clause(unwritten.map((u) => u.charge)));
    expectedRows.set(CHARGES_IN_CREDIT_CLAUSE, unwritten.length);
  }
  return { outcomes, alongside: { clauses, expectedRows } };
};

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Stages one card transfer's credit as `receive` makes it (and the fee); its new hold, when its
 * money is held. Also the sandbox's card sends (card-send-batch.ts).
 */
export function stageCredit(batch: LedgerBatch, transfer: FiatTransfer, hold: CardHold | undefined): NewHold | null {
  const { recipientAccountId: recipient, currency } = transfer;
  const clearing = platformAccount('processor_clearing', currency);
  // Only a receivable owing something is in the batch (card-credit-locks.ts); its locked balance is
  // negative by what is owed, as earlier members of the batch left it.
  const receivable = batch.accounts.get(specOf(receivableOf(recipient, currency)).code);
  const balance = receivable ? batch.locked.get(receivable.id)!.balance : 0n;
  const repaid = min(balance < 0n ? -balance : 0n, transfer.amountMinor);
  const credited = transfer.amountMinor - repaid;
  const held = hold !== undefined && hold.releaseAt > hold.now && credited > 0n;
  const transfers: TransferInput[] = [
    ...movement(clearing, receivableOf(recipient, currency), repaid, 'debt_repaid'),
    ...movement(clearing, held ? userHeld(recipient, currency) : userAvailable(recipient, currency), credited, 'fiat_transfer'),
    ...movement(clearing, platformAccount('fees', currency), transfer.feeMinor, 'fiat_fee'),
  ];
  const total = transfers.reduce((sum, t) => sum + ('amountMinor' in t ? t.amountMinor : 0n), 0n);
  assert(total === transfer.amountMinor + transfer.feeMinor, 'the ledger moves exactly amount + fee');
  // Every account it names only receives, but processor clearing, which may go negative.
  assert(stageOperation(batch, { operationId: creditOperationId(transfer.id), transfers }), 'a card credit always fits');
  if (!held) return null;
  return {
    id: newId('hold'),
    accountId: recipient,
    currency,
    transferId: transfer.id,
    amountMinor: credited,
    remainingMinor: credited,
    releaseAt: hold.releaseAt,
    createdAt: hold.now,
  };
}

function movement(debit: LedgerAccountKey, credit: LedgerAccountKey, amountMinor: bigint, code: string): TransferInput[] {
  return amountMinor > 0n ? [{ type: 'posted', debit, credit, amountMinor, code }] : [];
}
