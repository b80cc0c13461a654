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
  /** peerpay's own URL for this link (carries the link's secret token); the processor returns the user there. */
  readonly linkUrl: string;
  readonly expiresAt: Date;
  readonly idempotencyKey: string;
}

export interface SetupSession {
  readonly sessionRef: string;
  /** Where the user goes to enter the details peerpay must never see. */
  readonly url: string;
}

export interface CardChargeInput {
  readonly customerRef: string;
  readonly cardRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly idempotencyKey: string;
  readonly description: string;
}

export type CardChargeResult =
  | { readonly status: 'succeeded'; readonly chargeRef: string }
  | { readonly status: 'declined'; readonly chargeRef: string; readonly declineCode: string };

export interface BankDebitInput {
  readonly customerRef: string;
  readonly mandateRef: string;
  readonly currency: FiatCurrency;
  readonly amountMinor: bigint;
  readonly idempotencyKey: string;
  readonly description: string;
}

/** A bank debit is never final at once: it settles, or the bank returns it, days later. */
export type BankDebitStatus =
  | { readonly status: 'pending'; readonly debitRef: string; readonly expectedSettlementAt: Date }
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

export interface PaymentProcessor {
  readonly name: string;
  createCustomer(input: CreateCustomerInput): Promise<{ customerRef: string }>;
  /** A hosted page on which the user sets up a card, a bank-debit mandate or a payout account. */
  createSetupSession(input: SetupSessionInput): Promise<SetupSession>;
  chargeCard(input: CardChargeInput): Promise<CardChargeResult>;
  debitBank(input: BankDebitInput): Promise<BankDebitStatus>;
  /** Where a bank debit stands now (Stripe: retrieve the PaymentIntent; webhooks can shortcut polling). */
  bankDebitStatus(debitRef: string): Promise<BankDebitStatus>;
  payout(input: PayoutInput): Promise<PayoutResult>;
  /** Where a payout that was `in_transit` stands now. */
  payoutStatus(payoutRef: string): Promise<PayoutResult>;
}
