// The step between a transfer's recorded intent and its result: ask the processor (with the
// transfer id as idempotency key, and no transaction open), then record its answer and the ledger
// movement in one transaction. The same step serves the request and the recovery job, and running
// it twice for one transfer charges once and records once. A processor whose books are peerpay's
// own tables (the sandbox, ChargesInCredit) decides a request's card charge without writing it when
// it succeeds: the group commit that credits the transfer writes the charge (decision 0056).
import { assert } from '../platform/errors.js';
import type { FiatTransfer, FiatTransferStatus } from './fiat-transfer.js';
import { changeStatus, findTransfer } from './fiat-transfers-repository.js';
import { cardHoldOf, creditTransfer } from './fiat-ledger.js';
import { findProcessorCustomer } from './processor-customers-repository.js';
import { processorUnavailable } from './processor-errors.js';
import { recordTransferEvents, type TransferHandles } from './transfer-events.js';
import { cardCreditMember, type CardCreditMember } from './card-credit-member.js';
import type { CardCredits } from './card-credit-batch.js';
import {
  CHARGES_IN_CREDIT_CLAUSE,
  type CardChargeResult,
  type ChargesInCredit,
  type PaymentProcessor,
} from '../adapters/processor/payment-processor.js';
import { AlongsideMismatch } from '../ledger/ledger-writes.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

type ProcessorAnswer =
  | { to: Extract<FiatTransferStatus, 'completed'>; processorRef: string; ledger: 'posted'; unwritten?: CardCreditMember['unwritten'] }
  | { to: Extract<FiatTransferStatus, 'pending'>; processorRef: string; ledger: 'pending'; settlesAt: Date; checkAt: Date }
  | { to: Extract<FiatTransferStatus, 'failed'>; processorRef: string; failureCode: string };

type ProcessingDeps = { db: Db; processor: PaymentProcessor; clock: Clock; config: Config; cardCredits?: CardCredits | undefined };

/**
 * What the caller already read: the sender's processor customer (a new request does, to find the
 * instrument) and the two handles the events name (a request has them from authentication and
 * the recipient's look-up). The recovery job leaves them out and they are read here.
 */
export interface KnownForTransfer {
  customerRef?: string;
  handles?: TransferHandles;
}

export async function processTransfer(deps: ProcessingDeps, transfer: FiatTransfer, known: KnownForTransfer = {}): Promise<FiatTransfer> {
  assert(transfer.status === 'processing', 'only a processing transfer goes to the processor');
  const customer = known.customerRef ?? (await findProcessorCustomer(deps.db, transfer.senderAccountId))?.customerRef;
  assert(customer && transfer.instrumentRef, 'a transfer is recorded with its processor customer and instrument');
  // A request's card charge, on a processor whose books are peerpay's own tables (the sandbox):
  // written in the group commit that credits it, not in a statement and commit of its own.
  const inCredit = transfer.paymentMethod === 'instant' && deps.cardCredits && known.handles ? deps.processor.chargesInCredit : undefined;
  const answer = await ask(deps, transfer, customer, inCredit);
  try {
    return await recordAnswer(deps, transfer, answer, known.handles);
  } catch (error) {
    // The charge's key was taken when its credit came to write it: a charge was recorded outside a
    // credit meanwhile (the recovery job charges as chargeCard does). Asked again as chargeCard
    // asks, the processor answers with that charge, and the transfer is credited once with it.
    if (answer.to !== 'completed' || !answer.unwritten || !chargeKeyTaken(error)) throw error;
    return recordAnswer(deps, transfer, await ask(deps, transfer, customer, undefined), known.handles);
  }
}

function chargeKeyTaken(error: unknown): boolean {
  return error instanceof AlongsideMismatch && error.clause === CHARGES_IN_CREDIT_CLAUSE;
}

async function ask(deps: ProcessingDeps, transfer: FiatTransfer, customerRef: string, inCredit: ChargesInCredit | undefined) {
  try {
    return await askProcessor(deps, transfer, { customerRef, instrumentRef: transfer.instrumentRef!, inCredit });
  } catch (error) {
    throw processorUnavailable(error);
  }
}

async function askProcessor(
  deps: ProcessingDeps,
  transfer: FiatTransfer,
  { customerRef, instrumentRef, inCredit }: { customerRef: string; instrumentRef: string; inCredit: ChargesInCredit | undefined },
): Promise<ProcessorAnswer> {
  const common = chargeInputOf(transfer, customerRef);
  if (transfer.paymentMethod === 'instant') {
    const input = { ...common, cardRef: instrumentRef };
    if (!inCredit) return cardAnswer(await deps.processor.chargeCard(input));
    const asked = await inCredit.chargeCard(input);
    if (asked.written) return cardAnswer(asked.result);
    return { to: 'completed', processorRef: asked.charge.chargeRef, ledger: 'posted', unwritten: { charge: asked.charge, by: inCredit } };
  }
  const debit = await deps.processor.debitBank({ ...common, mandateRef: instrumentRef });
  switch (debit.status) {
    case 'pending':
      return {
        to: 'pending',
        processorRef: debit.debitRef,
        ledger: 'pending',
        settlesAt: debit.expectedSettlementAt,
        checkAt: debit.recheckAt ?? debit.expectedSettlementAt,
      };
    case 'succeeded':
      return { to: 'completed', processorRef: debit.debitRef, ledger: 'posted' };
    case 'returned':
      return { to: 'failed', processorRef: debit.debitRef, failureCode: 'bank_debit_refused' };
  }
}

/** What the processor is asked for a transfer: amount + fee, keyed by the transfer's id (a retry charges once). */
export function chargeInputOf(transfer: FiatTransfer, customerRef: string) {
  return {
    transferId: transfer.id,
    customerRef,
    currency: transfer.currency,
    amountMinor: transfer.amountMinor + transfer.feeMinor,
    idempotencyKey: transfer.id,
    description: `peerpay transfer ${transfer.id}`,
  };
}

function cardAnswer(charge: CardChargeResult): ProcessorAnswer {
  switch (charge.status) {
    case 'succeeded':
      return { to: 'completed', processorRef: charge.chargeRef, ledger: 'posted' };
    case 'declined':
      return { to: 'failed', processorRef: charge.chargeRef, failureCode: 'card_declined' };
    case 'authentication_required':
      return { to: 'failed', processorRef: charge.chargeRef, failureCode: 'card_authentication_required' };
  }
}

async function recordAnswer(
  deps: ProcessingDeps,
  transfer: FiatTransfer,
  answer: ProcessorAnswer,
  handles: TransferHandles | undefined,
): Promise<FiatTransfer> {
  const now = deps.clock.now();
  // A card charge that succeeded, for a request that knows its handles: credited in a group commit
  // with the others of its moment (card-credit-batch.ts); null when another worker recorded it.
  if (answer.to === 'completed' && transfer.paymentMethod === 'instant' && deps.cardCredits && handles) {
    const member = cardCreditMember(transfer, {
      chargeRef: answer.processorRef,
      now,
      hold: cardHoldOf(transfer, deps.config.fiatHoldMs, now),
      handles,
      unwritten: answer.unwritten,
    });
    return (await deps.cardCredits.run(member)) ?? (await answered(deps, transfer.id));
  }
  assert(answer.to !== 'completed' || !answer.unwritten, 'a charge left unwritten is written by the card credits');
  const recorded = await deps.db.transaction().execute(async (trx) => {
    const changed = await changeStatus(trx, {
      id: transfer.id,
      from: 'processing',
      to: answer.to,
      processorRef: answer.processorRef,
      failureCode: answer.to === 'failed' ? answer.failureCode : null,
      settlesAt: answer.to === 'pending' ? answer.settlesAt : null,
      checkAt: answer.to === 'pending' ? answer.checkAt : null,
      completedAt: answer.to === 'completed' ? now : null,
    });
    // Another worker recorded this answer first; it also moved the money.
    if (!changed) return null;
    if (answer.to !== 'failed') await creditTransfer(trx, changed, answer.ledger, cardHoldOf(changed, deps.config.fiatHoldMs, now));
    await recordTransferEvents(trx, { transfer: changed, from: 'processing', now, handles });
    return changed;
  });
  return recorded ?? (await answered(deps, transfer.id));
}

/** The transfer as the worker that recorded its answer first left it. */
async function answered(deps: { db: Db }, transferId: string): Promise<FiatTransfer> {
  const after = await findTransfer(deps.db, transferId);
  assert(after && after.status !== 'processing', 'a processed transfer has left processing');
  return after;
}
