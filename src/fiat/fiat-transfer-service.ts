// POST /transfers: send fiat to another user, paid by the sender's card (instant) or bank debit
// (ach), fee on top. The intent is recorded first, then the processor is asked, then its answer is
// recorded with the ledger movement (transfer-processing.ts). The client's Idempotency-Key is the
// transfer's natural key, so a retry after a crash continues the same transfer. The sandbox's card
// that succeeds asks nothing outside the database, so its transfer is recorded whole in one
// transaction instead (card-send.ts, decision 0063).
import { sameAccountKey, type AccountLookup, type AccountLookups } from '../accounts/account-lookups.js';
import type { AccountRow } from '../accounts/accounts-repository.js';
import { checkVisibleText } from '../accounts/account-rules.js';
import { formatMinor, parseAmount } from '../money/amount.js';
import { MINIMUM_CHARGE_MINOR, minimumFiatAmountMinor } from '../money/minimums.js';
import { exponentOf, isFiatCurrency, type FiatCurrency } from '../money/assets.js';
import { FIAT_FEE_RATES, fiatFee, type FiatPaymentMethod } from '../money/fees.js';
import { AppError, assert } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { limitVolumeOf, type FiatTransfer } from './fiat-transfer.js';
import { findTransferByIdempotencyKey, insertTransferIntent } from './fiat-transfers-repository.js';
import { processTransfer } from './transfer-processing.js';
import type { TransferHandles } from './transfer-events.js';
import type { SenderStanding, StandingReads } from './transfer-standing.js';
import { accountFrozen, lockSenderNotFrozen, refuseIfFrozen, stops } from '../compliance/freezes/freeze-checks.js';
import { accountInDebt, cardDisputed } from './card-risk/sender-standing.js';
import type { CardCredits } from './card-credit-batch.js';
import { IntentKeyTaken, intentMember, type TransferIntents } from './transfer-intent-batch.js';
import type { CardSends } from './card-send-batch.js';
import { sendCardInOneStep } from './card-send.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface SendTransferInput {
  senderAccountId: number;
  /** The sender's handle, as authentication read it: the transfer's events name it. */
  senderHandle: string;
  recipientHandle: string;
  /** As the client sent it: a JSON number in major units. */
  amount: number;
  currency: string;
  paymentMethod?: FiatPaymentMethod | undefined;
  note?: string | undefined;
  idempotencyKey: string | null;
}

export interface SentTransfer {
  transfer: FiatTransfer;
  recipientHandle: string;
}

type TransferDeps = {
  db: Db;
  processor: PaymentProcessor;
  clock: Clock;
  config: Config;
  limits: AccountLimits;
  cardCredits?: CardCredits | undefined;
  transferIntents?: TransferIntents | undefined;
  cardSends?: CardSends | undefined;
  standings: StandingReads;
};

/**
 * The account a fiat transfer or quote goes to, by handle; 404 recipient_not_found when there is
 * none, 400 self_transfer for the sender. Coalesced with the other look-ups of its turn, or the
 * look-up `started` with the request's key when it names the same handle.
 */
async function recipientOf(
  deps: { accountLookups: AccountLookups },
  input: { senderAccountId: number; recipientHandle: string },
  started?: AccountLookup | null,
): Promise<AccountRow> {
  const key = { handle: handleOf(input.recipientHandle) };
  const recipient = await (started && sameAccountKey(started.key, key) ? started.row : deps.accountLookups.account(key));
  return checkRecipient(recipient ?? null, input.senderAccountId);
}

/** How a handle is looked up: trimmed, upper case. */
function handleOf(raw: string): string {
  return raw.trim().toUpperCase();
}

function checkRecipient(recipient: AccountRow | null, senderAccountId: number): AccountRow {
  if (!recipient) throw new AppError('recipient_not_found', 'No account has that handle.');
  if (recipient.id === senderAccountId) throw new AppError('self_transfer', 'You cannot send money to yourself.');
  return recipient;
}

export async function sendTransfer(deps: TransferDeps, input: SendTransferInput): Promise<SentTransfer> {
  // The sender's freeze, debt, disputes and card, the recipient and the transfer already made under
  // the key, in one statement (transfer-standing.ts), asked first: a frozen account is told so
  // before anything else about the transfer (DESIGN §17), not that it lacks a card. The freeze
  // check that counts is the one under the sender's lock below.
  const code = input.currency.trim().toUpperCase();
  const standing = await deps.standings({
    accountId: input.senderAccountId,
    currency: isFiatCurrency(code) ? code : null,
    recipientHandle: handleOf(input.recipientHandle),
    idempotencyKey: input.idempotencyKey,
  });
  if (stops(standing.freeze, 'other')) throw accountFrozen('other');
  if (input.note !== undefined) checkVisibleText(input.note, 'note');
  const currency = currencyOf(input.currency);
  const amountMinor = amountOf(input.amount, currency, deps.config.maxFiatTransferMajor);
  const paymentMethod = input.paymentMethod ?? 'instant';
  checkFiatMinimum(amountMinor, currency, paymentMethod);
  const recipient = checkRecipient(standing.recipient, input.senderAccountId);
  const terms = { recipientAccountId: recipient.id, currency, amountMinor, paymentMethod };
  const handles = { sender: input.senderHandle, recipient: recipient.handle };

  if (standing.earlier) return continueTransfer(deps, standing.earlier, terms, handles);

  if (standing.owedMinor > 0n) throw accountInDebt(standing.owedMinor, currency);
  if (paymentMethod === 'instant' && standing.cardDisputed) throw cardDisputed();
  const { customerRef, instrumentRef } = instrumentOf(standing.customer, paymentMethod);
  const { fee } = fiatFee(amountMinor, paymentMethod);
  const intent: FiatTransfer = {
    id: newId('tr'),
    senderAccountId: input.senderAccountId,
    recipientAccountId: recipient.id,
    currency,
    amountMinor,
    feeMinor: fee,
    paymentMethod,
    status: 'processing',
    note: input.note ?? null,
    instrumentRef,
    processorRef: null,
    failureCode: null,
    idempotencyKey: input.idempotencyKey,
    createdAt: deps.clock.now(),
    settlesAt: null,
    completedAt: null,
  };
  // The sandbox's card that succeeds: the whole transfer in one transaction (card-send.ts).
  const sent = await sendCardInOneStep(deps, intent, { customerRef, handles });
  if (sent) return finish(sent, recipient.handle);
  const inserted = await recordIntent(deps, intent);
  if (!inserted) {
    // A request with the same key got in between (only possible after its key's lease ran out).
    const earlier = await findTransferByIdempotencyKey(deps.db, input.senderAccountId, input.idempotencyKey!);
    assert(earlier, 'a conflicting transfer exists');
    return continueTransfer(deps, earlier, terms, handles);
  }
  return finish(await processTransfer(deps, inserted, { customerRef, handles }), recipient.handle);
}

/**
 * Records the intent, null when the sender has a transfer under its key already: in a group commit
 * with the others of its moment (transfer-intent-batch.ts), or in a transaction of its own when
 * there is none or when the group commit could not tell whether its key was taken.
 */
async function recordIntent(deps: TransferDeps, intent: FiatTransfer): Promise<FiatTransfer | null> {
  if (!deps.transferIntents) return recordIntentAlone(deps, intent);
  try {
    return await deps.transferIntents.run(intentMember(intent));
  } catch (error) {
    if (error instanceof IntentKeyTaken) return recordIntentAlone(deps, intent);
    throw error;
  }
}

function recordIntentAlone(deps: TransferDeps, intent: FiatTransfer): Promise<FiatTransfer | null> {
  return deps.db.transaction().execute(async (trx) => {
    // The sender's row serialises its fiat movements (transfers and payouts): the limit check
    // below sees every one committed before it (decision 0036). Under that lock, which a freeze
    // waits for, the freeze is read in the same statement: the intent is recorded before the
    // freeze commits, or the freeze is seen here (decision 0035).
    await lockSenderNotFrozen(trx, intent.senderAccountId, 'other');
    const recorded = await insertTransferIntent(trx, intent);
    // Fees included: what leaves the sender's card or bank is the amount and the fee.
    if (recorded) await deps.limits.checkAndRecord(trx, { ...limitVolumeOf(recorded), what: 'transfer' });
    return recorded;
  });
}

/** The transfer this idempotency key already made: carried on if unfinished, answered as it stands otherwise. */
async function continueTransfer(
  deps: TransferDeps,
  earlier: FiatTransfer,
  request: { recipientAccountId: number; currency: FiatCurrency; amountMinor: bigint; paymentMethod: FiatPaymentMethod },
  handles: TransferHandles,
): Promise<SentTransfer> {
  const same =
    earlier.recipientAccountId === request.recipientAccountId &&
    earlier.currency === request.currency &&
    earlier.amountMinor === request.amountMinor &&
    earlier.paymentMethod === request.paymentMethod;
  if (!same) throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used for a different transfer.');
  const current = earlier.status === 'processing' ? await processTransfer(deps, earlier, { handles }) : earlier;
  return finish(current, handles.recipient);
}

/** A declined card is an error for the client (402), although the attempt is recorded as failed. */
function finish(transfer: FiatTransfer, recipientHandle: string): SentTransfer {
  if (transfer.status === 'failed' && transfer.failureCode === 'card_declined') {
    throw new AppError(
      'card_declined',
      'The card was declined; nothing was charged or sent. Set up another card with POST /agent/setup-link.',
      {
        transferId: transfer.id,
      },
    );
  }
  if (transfer.status === 'failed' && transfer.failureCode === 'card_authentication_required') {
    throw new AppError(
      'card_authentication_required',
      "The card's bank wants the cardholder to confirm this payment, which an off-session charge cannot do; nothing was charged or sent. Have the user set the card up again with POST /agent/setup-link, then retry.",
      { transferId: transfer.id },
    );
  }
  // A debit the bank refuses at once (the sandbox bank never does) means the mandate is unusable:
  // the same remedy as no mandate at all.
  if (transfer.status === 'failed' && transfer.failureCode === 'bank_debit_refused') {
    throw new AppError(
      'ach_setup_required',
      'The bank refused the debit; nothing was sent. Set up bank debit again with POST /agent/bank-debit-link.',
      {
        needsBankDebitSetup: true,
        transferId: transfer.id,
      },
    );
  }
  return { transfer, recipientHandle };
}

/** The sender's processor customer and the instrument this payment method charges. */
function instrumentOf(customer: SenderStanding['customer'], method: FiatPaymentMethod): { customerRef: string; instrumentRef: string } {
  if (method === 'instant') {
    if (!customer?.cardRef)
      throw new AppError(
        'card_setup_required',
        'No card is set up. Call POST /agent/setup-link and let the user finish the page, then retry.',
      );
    return { customerRef: customer.customerRef, instrumentRef: customer.cardRef };
  }
  if (!customer?.bankDebitRef) {
    throw new AppError(
      'ach_setup_required',
      'Bank debit is not set up. Call POST /agent/bank-debit-link and let the user finish the page, then retry.',
      {
        needsBankDebitSetup: true,
      },
    );
  }
  return { customerRef: customer.customerRef, instrumentRef: customer.bankDebitRef };
}

export interface FiatQuoteInput {
  senderAccountId: number;
  recipientHandle: string;
  /** The recipient's look-up, when authentication started it with the key. */
  recipientLookup?: AccountLookup | null;
  /** Major units, as a decimal string (a query parameter) or a JSON number. */
  amount: number | string;
  currency: string;
  paymentMethod?: FiatPaymentMethod | undefined;
}

export interface FiatQuote {
  amountMinor: bigint;
  feeMinor: bigint;
  currency: FiatCurrency;
  paymentMethod: FiatPaymentMethod;
  feeRateLabel: string;
  recipientHandle: string;
}

/**
 * What POST /transfers would charge for these terms, by the same rules and refusals (a frozen
 * sender, currency, amount, minimum, recipient, self, limits); nothing is recorded and no card or bank setup is checked.
 */
export async function quoteFiatTransfer(
  deps: { db: Db; accountLookups: AccountLookups; config: Config; limits: AccountLimits },
  input: FiatQuoteInput,
): Promise<FiatQuote> {
  await refuseIfFrozen(deps.db, input.senderAccountId, 'other');
  const currency = currencyOf(input.currency);
  const amountMinor = amountOf(input.amount, currency, deps.config.maxFiatTransferMajor);
  const paymentMethod = input.paymentMethod ?? 'instant';
  checkFiatMinimum(amountMinor, currency, paymentMethod);
  const recipient = await recipientOf(deps, input, input.recipientLookup);
  const { fee } = fiatFee(amountMinor, paymentMethod);
  await deps.limits.refuseBeyond({ accountId: input.senderAccountId, currency, amountMinor: amountMinor + fee, what: 'transfer' });
  return {
    amountMinor,
    feeMinor: fee,
    currency,
    paymentMethod,
    feeRateLabel: FIAT_FEE_RATES[paymentMethod].label,
    recipientHandle: recipient.handle,
  };
}

/** Totals below the processor's minimum charge are refused before anything is recorded (DESIGN §15). */
export function checkFiatMinimum(amountMinor: bigint, currency: FiatCurrency, method: FiatPaymentMethod): void {
  const minimumMinor = minimumFiatAmountMinor(currency, method);
  if (amountMinor >= minimumMinor) return;
  const minimum = formatMinor(minimumMinor, currency);
  throw new AppError(
    'amount_too_small',
    `The smallest ${method} transfer in ${currency} is ${minimum} ${currency} (the card network's and bank's minimum charge of ${formatMinor(MINIMUM_CHARGE_MINOR[currency], currency)} ${currency}, fee included).`,
    { minimum },
  );
}

function currencyOf(raw: string): FiatCurrency {
  // Currency codes are case-insensitive on input ("usd" is USD), as processors commonly write them.
  const code = raw.trim().toUpperCase();
  if (!isFiatCurrency(code))
    throw new AppError('unsupported_currency', `Unsupported currency "${raw.slice(0, 16)}"; use USD, EUR, GBP or JPY.`);
  return code;
}

function amountOf(amount: number | string, currency: FiatCurrency, maxMajor: bigint): bigint {
  const parsed = parseAmount(amount, currency, maxMajor);
  if (parsed.ok) return parsed.minor;
  switch (parsed.problem) {
    case 'too_large':
      throw new AppError('amount_too_large', `The amount is over the maximum of ${maxMajor} ${currency} per transfer.`);
    case 'too_many_decimals':
      throw new AppError(
        'invalid_amount',
        exponentOf(currency) === 0
          ? `${currency} amounts are whole numbers.`
          : `${currency} amounts have at most ${exponentOf(currency)} decimals.`,
      );
    case 'not_positive':
      throw new AppError('invalid_amount', 'The amount must be greater than zero.');
    case 'not_a_number':
      throw new AppError('invalid_amount', 'The amount must be a finite number.');
  }
}
