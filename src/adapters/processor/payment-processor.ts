// The payment processor holds every card, bank and payout credential; peerpay keeps only the
// references it hands back. This interface is what peerpay needs from a processor, shaped so that
// Stripe fits it as well as the built-in sandbox processor:
//   customer        ↔ Stripe Customer
//   setup session   ↔ Checkout Session in setup mode (card, us_bank_account) / Connect Account Link
//   card charge     ↔ PaymentIntent confirmed off-session with the saved card
//   bank debit      ↔ PaymentIntent on a us_bank_account mandate: pending, later succeeded or returned
//   payout          ↔ Transfer/Payout to a connected account
// Every call that moves money takes an idempotency key: a repeat with the same key returns the
// first result instead of moving money twice, which is what makes retries after a crash safe.
import type { RawBuilder } from 'kysely';
import type { FiatCurrency } from '../../money/assets.js';

/** What a setup page creates at the processor. */
export type InstrumentKind = 'card' | 'bank_debit' | 'payout';

export interface CreateCustomerInput {
  readonly accountId: number;
  readonly email: string;
  /** The same key always yields the same customer. */
  readonly idempotencyKey: string;
}

export interface SetupSessionInput {
  readonly customerRef: string;
  readonly kind: InstrumentKind;
  /**
   * peerpay's own URL for this link (carries the link's secret token). The sandbox serves its page
   * there; a hosting processor sends the user back to `${linkUrl}/return` (done) or
   * `${linkUrl}/cancel`, and, for payout onboarding, to `${linkUrl}/refresh` for a fresh page.
   */
  readonly linkUrl: string;
  readonly expiresAt: Date;
  readonly idempotencyKey: string;
  /** Payout setup on a processor with payout accounts: the account made by createPayoutAccount. */
  readonly payoutAccountRef?: string;
  /** peerpay's link id, recorded at the processor so that its records point back (Stripe metadata). */
  readonly linkId: string;
}

export interface SetupSession {
  /** What the processor's completion names: a Checkout Session, or the connected account being onboarded. */
  readonly sessionRef: string;
  /** Where the user goes to enter the details peerpay must never see. */
  readonly url: string;
  /**
   * `page`: peerpay's own page completes it (sandbox); `processor`: the processor tells peerpay by
   * webhook, and the reconciliation job reads it back when no webhook came.
   */
  readonly completion: 'page' | 'processor';
}

/** Where a processor-hosted setup stands (read back by the reconciliation job). */
export type SetupStatus =
  { readonly state: 'open' } | { readonly state: 'expired' } | { readonly state: 'complete'; readonly instrumentRef: string };

export interface CardChargeInput {
  /** peerpay's transfer, recorded at the processor (Stripe metadata) so that its webhooks name it. */
  readonly transferId: string;
  readonly customerRef: string;
  readonly cardRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly idempotencyKey: string;
  readonly description: string;
}

/**
 * A card charge the processor decided to make but has not written yet: a processor whose books are
 * peerpay's own tables (the sandbox) lets the transaction that credits the transfer write it
 * (ChargesInCredit), so that charge and credit commit together, in one statement fewer.
 */
export interface UnwrittenCardCharge {
  readonly chargeRef: string;
  readonly idempotencyKey: string;
  readonly cardRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly createdAt: Date;
}

/**
 * A charge asked for with ChargesInCredit: one the processor wrote already (a decline, answered
 * exactly as chargeCard answers it), or a succeeded one for the credit's transaction to write.
 */
export type ChargeInCredit =
  { readonly written: true; readonly result: CardChargeResult } | { readonly written: false; readonly charge: UnwrittenCardCharge };

/** Card charges written in the transaction that credits them (only a processor whose books are peerpay's database). */
export interface ChargesInCredit {
  /** As chargeCard, but a succeeded charge is not written: its transaction writes it with `clause`. */
  chargeCard(input: CardChargeInput): Promise<ChargeInCredit>;
  /**
   * The charge chargeCard would make when it succeeds, unwritten, or null when the card would not
   * succeed: nothing is written either way. The sandbox's card transfer is then written whole in
   * one transaction, its charge with it (fiat/card-send-batch.ts); a null sends it the two-step way.
   */
  succeedingCharge(input: CardChargeInput): Promise<UnwrittenCardCharge | null>;
  /**
   * A WITH clause named CHARGES_IN_CREDIT_CLAUSE inserting the charges, returning one row per
   * charge written; a charge whose idempotency key is taken already is left out (the caller counts).
   */
  clause(charges: readonly UnwrittenCardCharge[]): RawBuilder<unknown>;
}

/** The name of ChargesInCredit's WITH clause. */
export const CHARGES_IN_CREDIT_CLAUSE = 'card_charges_added';

export type CardChargeResult =
  | { readonly status: 'succeeded'; readonly chargeRef: string }
  | { readonly status: 'declined'; readonly chargeRef: string; readonly declineCode: string }
  /** The card's bank wants the cardholder (3-D Secure) and the cardholder is not there: set up again. */
  | { readonly status: 'authentication_required'; readonly chargeRef: string };

export interface BankDebitInput {
  readonly transferId: string;
  readonly customerRef: string;
  readonly mandateRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly idempotencyKey: string;
  readonly description: string;
}

/** A bank debit is never final at once: it settles, or the bank returns it, days later. */
export type BankDebitStatus =
  | {
      readonly status: 'pending';
      readonly debitRef: string;
      /** The date shown to the user. */
      readonly expectedSettlementAt: Date;
      /** When to ask again if nothing has told peerpay sooner (a webhook); the expected date when absent. */
      readonly recheckAt?: Date;
    }
  | { readonly status: 'succeeded'; readonly debitRef: string }
  | { readonly status: 'returned'; readonly debitRef: string; readonly returnCode: string };

export interface PayoutInput {
  readonly payoutAccountRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly idempotencyKey: string;
}

export type PayoutResult =
  | { readonly status: 'paid'; readonly payoutRef: string }
  | { readonly status: 'in_transit'; readonly payoutRef: string }
  | { readonly status: 'failed'; readonly payoutRef: string; readonly failureCode: string };

/** Why a refund is made (Stripe's `reason`). */
export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

export interface RefundInput {
  /** The charge (PaymentIntent) the refund gives money back from. */
  readonly chargeRef: string;
  readonly currency: FiatCurrency;
  /** What goes back to the card: the transfer's amount taken back, plus its fee when refunded. */
  readonly amountMinor: bigint;
  readonly reason: RefundReason;
  /** peerpay's transfer and refund, recorded at the processor (Stripe metadata). */
  readonly transferId: string;
  readonly refundId: string;
  /** The refund id: a retry never refunds twice. */
  readonly idempotencyKey: string;
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** A refund as the processor knows it, whoever made it (peerpay, or the processor's dashboard). */
export interface ProcessorRefund {
  readonly refundRef: string;
  readonly chargeRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly status: RefundStatus;
  /** peerpay's refund id when peerpay made it (from the processor's metadata); null otherwise. */
  readonly refundId: string | null;
}

/** Where a dispute (chargeback) stands: `won` also covers an inquiry closed without a chargeback. */
export type DisputeStatus = 'open' | 'won' | 'lost';

export interface ProcessorDispute {
  readonly disputeRef: string;
  readonly chargeRef: string;
  readonly currency: FiatCurrency;
  /** What the cardholder disputes, taken back from peerpay's processor balance. */
  readonly amountMinor: bigint;
  readonly reason: string;
  readonly status: DisputeStatus;
  /** The processor's dispute fee when the event names it (Stripe: the dispute's balance transactions). */
  readonly feeMinor: bigint | null;
}

export interface PayoutReversalInput {
  readonly payoutRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  /** peerpay's payout, recorded at the processor (Stripe metadata). */
  readonly payoutId: string;
  readonly idempotencyKey: string;
}

/**
 * What a processor's webhook says happened, in peerpay's terms. `eventId` is the processor's own
 * event id, by which each event is applied once.
 */
export type ProcessorEvent = CardRiskEvent | AccountEvent;

/** The events about setups, charges and payouts. */
export type AccountEvent = { readonly eventId: string; readonly type: string } & (
  | { readonly kind: 'setup_completed'; readonly sessionRef: string; readonly instrumentRef: string }
  | { readonly kind: 'payout_account_ready'; readonly payoutAccountRef: string }
  | { readonly kind: 'charge_succeeded'; readonly chargeRef: string; readonly transferId: string }
  | { readonly kind: 'charge_failed'; readonly chargeRef: string; readonly transferId: string; readonly failureCode: ChargeFailureCode }
  | { readonly kind: 'ignored'; readonly reason: string }
);

/** The card-risk events (DESIGN §16). */
export type CardRiskEvent = { readonly eventId: string; readonly type: string } &
  /** One or more refunds of a charge were made or changed (by peerpay or elsewhere). */
  (
    | { readonly kind: 'refunds_changed'; readonly chargeRef: string; readonly refunds: readonly ProcessorRefund[] }
    /** A dispute was opened, changed or closed; applied once per dispute whatever the order. */
    | { readonly kind: 'dispute_changed'; readonly dispute: ProcessorDispute }
    /** The card network warns that a charge is likely fraud: the recipient's payouts pause. */
    | { readonly kind: 'early_fraud_warning'; readonly warningRef: string; readonly chargeRef: string }
    /** Well signed but not what its type promises (no object, an object unknown to the processor): 200 and an error log. */
    | { readonly kind: 'malformed'; readonly reason: string }
  );

export type ChargeFailureCode = 'card_declined' | 'card_authentication_required' | 'bank_debit_returned';

export interface CreatePayoutAccountInput {
  readonly accountId: number;
  readonly email: string;
  readonly idempotencyKey: string;
}

/**
 * One movement of peerpay's balance at the processor (Stripe: a balance transaction), as
 * reconciliation reads it. Amounts are signed minor units: positive into the balance.
 */
export interface ProcessorBalanceMovement {
  /** The processor's own id of the movement (Stripe: `txn_…`). */
  readonly ref: string;
  /** The processor's kind of movement (Stripe's `type`: charge, payment, refund, adjustment, transfer, …). */
  readonly type: string;
  /** What the movement is for (Stripe's `reporting_category`: charge, refund, dispute, transfer, …). */
  readonly category: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  /** What the processor kept for itself on this movement (Stripe's `fee`). */
  readonly processorFeeMinor: bigint;
  readonly createdAt: Date;
  /**
   * What moved the money, in the ids peerpay stores: a charge's PaymentIntent (a transfer's
   * processor ref), a refund, a dispute, a payout or a payout reversal.
   */
  readonly sourceRef: string;
}

export interface BalanceMovementsQuery {
  readonly currency: FiatCurrency;
  /** Created at or after. */
  readonly from: Date;
  /** Created before. */
  readonly to: Date;
}

export interface PaymentProcessor extends CardRiskProcessor {
  readonly name: string;
  /**
   * How long the processor remembers an idempotency key (Stripe: 24 hours); null: for ever. After
   * that a repeated call would be a new charge, so peerpay never repeats one that late.
   */
  readonly idempotencyKeyLifetimeMs: number | null;
  createCustomer(input: CreateCustomerInput): Promise<{ customerRef: string }>;
  /**
   * Processors with payout accounts of their own (Stripe Connect): the user's account, made once and
   * then onboarded through setup sessions. Absent where the setup page itself makes it (sandbox).
   */
  createPayoutAccount?(input: CreatePayoutAccountInput): Promise<{ payoutAccountRef: string }>;
  /** Processors whose setups complete by webhook: read one back (reconciliation). */
  setupStatus?(input: { kind: InstrumentKind; sessionRef: string }): Promise<SetupStatus>;
  /** A hosted page on which the user sets up a card, a bank-debit mandate or a payout account. */
  createSetupSession(input: SetupSessionInput): Promise<SetupSession>;
  chargeCard(input: CardChargeInput): Promise<CardChargeResult>;
  /**
   * Present only where a charge can be written in peerpay's own transaction (the sandbox): a
   * request's succeeded card charge is then written with its credit. Absent for a processor that is
   * an HTTP call (Stripe), whose charge is made between the intent's commit and the credit.
   */
  readonly chargesInCredit?: ChargesInCredit;
  debitBank(input: BankDebitInput): Promise<BankDebitStatus>;
  /** Where a bank debit stands now (Stripe: retrieve the PaymentIntent; webhooks can shortcut polling). */
  bankDebitStatus(debitRef: string): Promise<BankDebitStatus>;
  payout(input: PayoutInput): Promise<PayoutResult>;
  /** Where a payout that was `in_transit` stands now. */
  payoutStatus(payoutRef: string): Promise<PayoutResult>;
  /**
   * Every movement of the processor balance in one currency and time range, oldest first (Stripe:
   * `GET /v1/balance_transactions`, paged). Throws rather than answer part of a range.
   */
  balanceMovements(query: BalanceMovementsQuery): Promise<readonly ProcessorBalanceMovement[]>;
}

/** The most movements one reconciliation reads for one day and currency; beyond it the read refuses to guess. */
export const MAX_BALANCE_MOVEMENTS_PER_QUERY = 20_000;

/** What card risk (DESIGN §16) needs of a processor. */
export interface CardRiskProcessor {
  /** Gives (part of) a charge back to the card; idempotent per key. */
  refund(input: RefundInput): Promise<ProcessorRefund>;
  /** Every refund of a charge, whoever made it (Stripe: `GET /v1/refunds?payment_intent=`). */
  listRefunds(chargeRef: string): Promise<readonly ProcessorRefund[]>;
  /** Takes (part of) a payout back from the recipient's payout account; idempotent per key. */
  reversePayout(input: PayoutReversalInput): Promise<{ reversalRef: string }>;
}
