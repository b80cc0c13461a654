// The sandbox's card transfer written whole in one group commit (decision 0063, issue 30). With a
// processor whose books are peerpay's own tables (ChargesInCredit: the sandbox), a card that
// succeeds asks nothing outside the database, so no intent needs to commit before the charge: a
// request's transfer is recorded completed, with its limit volume, its charge, its credit (debt
// repaid first, the rest held or available), its hold and its four events, in one transaction
// shared with the others of its moment, and either all of it commits or none. The two-step way
// (transfer-intent-batch.ts, then card-credit-batch.ts) stays for everything else: a declined card,
// a bank debit, Stripe, the recovery job, and every member this batch cannot answer (SendApart).
//
// Lock order, the global one (card-risk/user-money.ts), taken before the ledger's:
//   1. the senders' and recipients' `accounts` rows, FOR NO KEY UPDATE in id order in one
//      statement, reading the senders' freezes (decision 0035): from here no take-back, repayment
//      or release of a recipient runs, and every fiat movement of a sender waits (decision 0036);
//   2. what the recipients owe and the senders' limit standing, read after those locks in one
//      statement of their own (so that its snapshot sees every take-back and every movement of the
//      senders committed before them; decision 0065): the receivables owing are locked with the
//      ledger's;
//   3. the ledger accounts (openBatch).
// Each member is then checked in memory in member order: a frozen sender refused, one beyond its
// limits refused (with an Idempotency-Key it is sent apart: the volume may be its own first
// request's), the rest staged. The transfers, charges, holds, limit volume and events of those
// staged go out in the ledger's one statement, each counted: a transfer whose key is taken (a
// replay racing its first request) fails the batch, and its members run again alone, where that
// member fails and is sent apart.
import { CHARGES_IN_CREDIT_CLAUSE, type ChargesInCredit, type UnwrittenCardCharge } from '../adapters/processor/payment-processor.js';
import { accountFrozen, lockedFrozenSenders } from '../compliance/freezes/freeze-checks.js';
import { standingFrom, standingQuery, type AccountStanding } from '../compliance/limits/limits-repository.js';
import { batchStandingInput, type AccountLimits, type Movement } from '../compliance/limits/limits-service.js';
import { eventsClause, type NewEvent } from '../events/record-event.js';
import type { BatchPreparer, GroupCommit, MemberPlan, Outcome, PreparedBatchWriter } from '../ledger/group-commit.js';
import { AlongsideMismatch, withCounted, type Alongside } from '../ledger/ledger-writes.js';
import { assert } from '../platform/errors.js';
import { holdsClause } from './card-risk/holds-repository.js';
import { stageCredit, type NewHold } from './card-credit-batch.js';
import { owingReceivablesBeside } from './card-credit-locks.js';
import { creditAccounts } from './card-credit-member.js';
import type { CardHold } from './fiat-ledger.js';
import { limitVolumeOf, type FiatTransfer } from './fiat-transfer.js';
import { newTransfersClause } from './fiat-transfers-repository.js';
import { transferEvents, type TransferHandles } from './transfer-events.js';

const SENDS_CLAUSE = 'card_sends_added';

export interface CardSendMember extends MemberPlan {
  /** The transfer as it is recorded: completed, paid by `charge`. */
  readonly transfer: FiatTransfer;
  /** The processor's charge of amount + fee, written with the transfer. */
  readonly charge: UnwrittenCardCharge;
  readonly by: ChargesInCredit;
  /** The hold on the recipient's money (DESIGN §16), when card money is held. */
  readonly hold: CardHold | undefined;
  readonly handles: TransferHandles;
}

/** The sandbox's card sends, written in shared transactions: the transfer as recorded. */
export type CardSends = GroupCommit<CardSendMember, FiatTransfer>;

/**
 * This batch cannot answer the member: its key may be taken already (a replay), or its limits
 * refused it and it has a key. Nothing of it was written; the request goes the two-step way, whose
 * intent's transaction finds the transfer under its key before it checks any limit.
 */
export class SendApart extends Error {}

export function cardSendMember(
  transfer: FiatTransfer,
  paid: { charge: UnwrittenCardCharge; by: ChargesInCredit; hold: CardHold | undefined; handles: TransferHandles },
): CardSendMember {
  assert(
    transfer.status === 'completed' && transfer.processorRef === paid.charge.chargeRef,
    'a card send is recorded completed by its charge',
  );
  assert(paid.charge.amountMinor === transfer.amountMinor + transfer.feeMinor, 'the charge pays amount + fee');
  return { accounts: creditAccounts(transfer, paid.hold), transfer, ...paid };
}

/** What the batch found under its locks (steps 1 and 2 above). */
export interface CardSendsFound {
  /** The senders frozen for a transfer. */
  readonly frozen: ReadonlySet<number>;
  /** The limit standing of the senders that are not. */
  readonly standing: Map<number, AccountStanding>;
}

export const prepareCardSends: BatchPreparer<CardSendMember, CardSendsFound> = async (trx, members) => {
  const frozen = await lockedFrozenSenders(
    trx,
    { senders: members.map((m) => m.transfer.senderAccountId), others: members.map((m) => m.transfer.recipientAccountId) },
    'other',
  );
  const open = members.filter((m) => !frozen.has(m.transfer.senderAccountId));
  if (open.length === 0) return { accounts: [], state: { frozen, standing: new Map() } };
  const { owing, rows } = await owingReceivablesBeside(
    trx,
    open.map((m) => ({ accountId: m.transfer.recipientAccountId, currency: m.transfer.currency })),
    standingQuery(batchStandingInput(open.map((m) => movementOf(m.transfer)))),
  );
  return { accounts: owing, state: { frozen, standing: standingFrom(rows) } };
};

function movementOf(transfer: FiatTransfer): Movement {
  // Fees included: what leaves the sender's card is the amount and the fee.
  return { ...limitVolumeOf(transfer), what: 'transfer' };
}

export function createCardSendWriter({
  limits,
}: {
  limits: AccountLimits;
}): PreparedBatchWriter<CardSendMember, FiatTransfer, CardSendsFound> {
  return async (_trx, batch, members, { frozen, standing }) => {
    const keys = members
      .filter((m) => m.transfer.idempotencyKey !== null)
      .map((m) => `${m.transfer.senderAccountId}/${m.transfer.idempotencyKey}`);
    // Two members sharing a key are never written together: the batch fails, and each runs alone.
    if (new Set(keys).size < keys.length) throw new SendApart('two members of the batch share an Idempotency-Key');
    const limitBatch = limits.batchOver(standing);
    const written: CardSendMember[] = [];
    const holds: NewHold[] = [];
    const outcomes = members.map((m): Outcome<FiatTransfer> => {
      if (frozen.has(m.transfer.senderAccountId)) return { ok: false, error: accountFrozen('other') };
      const movement = movementOf(m.transfer);
      const refusal = limitBatch.refusal(movement);
      if (refusal && m.transfer.idempotencyKey !== null) return { ok: false, error: new SendApart('a keyed send beyond its limits') };
      if (refusal) return { ok: false, error: refusal };
      limitBatch.stage(movement);
      const hold = stageCredit(batch, m.transfer, m.hold);
      if (hold) holds.push(hold);
      written.push(m);
      return { ok: true, value: m.transfer };
    });
    if (written.length === 0) return { outcomes };
    const events: NewEvent[] = written.flatMap((m) =>
      transferEvents({ transfer: m.transfer, from: 'processing', now: m.transfer.completedAt!, handles: m.handles }),
    );
    // One processor per service: its clause writes every charge of the batch.
    const by = written[0]!.by;
    assert(
      written.every((m) => m.by === by),
      'the charges of a batch are written by one processor',
    );
    let alongside: Alongside = {
      clauses: [
        newTransfersClause(
          SENDS_CLAUSE,
          written.map((m) => m.transfer),
        ),
        by.clause(written.map((m) => m.charge)),
        eventsClause(events),
      ],
      expectedRows: new Map([
        [SENDS_CLAUSE, written.length],
        [CHARGES_IN_CREDIT_CLAUSE, written.length],
      ]),
    };
    if (holds.length > 0) alongside = withCounted(alongside, { clause: holdsClause(holds), name: 'holds_added', rows: holds.length });
    return { outcomes, alongside: withCounted(alongside, limitBatch.clause()) };
  };
}

/** True when a batch of one failed because its transfer's key was taken: the request goes the two-step way. */
export function sentApart(error: unknown): boolean {
  return error instanceof SendApart || (error instanceof AlongsideMismatch && error.clause === SENDS_CLAUSE);
}
