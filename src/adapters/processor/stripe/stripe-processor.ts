// The payment processor on Stripe (DESIGN §11), with only the calls listed there:
//   customer          POST /v1/customers
//   card / bank setup POST /v1/checkout/sessions (mode=setup), read back with GET /v1/checkout/sessions
//                     and GET /v1/setup_intents
//   payout account    POST /v1/accounts (Express), POST /v1/account_links, GET /v1/accounts
//   instant / ach     POST /v1/payment_intents (confirm, off_session), GET /v1/payment_intents
//   payout            POST /v1/transfers to the connected account
//   card risk         POST /v1/refunds, GET /v1/refunds, POST /v1/transfers/{id}/reversals,
//                     GET /v1/charges/{id} (stripe-card-risk.ts)
//   reconciliation    GET /v1/balance_transactions (stripe-balance-transactions.ts)
// Every call that creates something carries peerpay's own Idempotency-Key, so that a retry (by the
// client library, a retried request or a recovery job) returns the first result instead of
// charging or paying twice.
import Stripe from 'stripe';
import type { Clock } from '../../../platform/clock.js';
import { addBusinessDays } from '../business-days.js';
import type {
  BalanceMovementsQuery,
  BankDebitInput,
  BankDebitStatus,
  CardChargeInput,
  CardRiskProcessor,
  CardChargeResult,
  CreateCustomerInput,
  CreatePayoutAccountInput,
  InstrumentKind,
  PaymentProcessor,
  PayoutInput,
  PayoutResult,
  PayoutReversalInput,
  ProcessorBalanceMovement,
  ProcessorRefund,
  RefundInput,
  SetupSession,
  SetupSessionInput,
  SetupStatus,
} from '../payment-processor.js';
import { listStripeBalanceMovements } from './stripe-balance-transactions.js';
import { createStripeCardRisk, type StripeCardRisk, stripeMinorAmount } from './stripe-card-risk.js';
import { cardErrorOutcome, stripeCallError } from './stripe-errors.js';
import { bankDebitInstrumentRef, parseBankDebitInstrumentRef } from './stripe-instrument-ref.js';
import { idOf, MalformedStripeObjectError } from './stripe-risk-objects.js';

/** Stripe's usual ACH debit timing: the date shown to the user until a webhook settles it. */
const ACH_SETTLEMENT_BUSINESS_DAYS = 4;
/** A debit no webhook has settled is read back after this long (DESIGN §11), then hourly. */
const RECONCILE_AFTER_MS = 15 * 60 * 1000;
const RECHECK_MS = 3600 * 1000;

export class StripeProcessor implements PaymentProcessor, CardRiskProcessor {
  readonly name = 'stripe';
  readonly idempotencyKeyLifetimeMs = 24 * 3600 * 1000;
  private readonly cardRisk: StripeCardRisk;

  constructor(private readonly deps: { stripe: Stripe; clock: Clock }) {
    this.cardRisk = createStripeCardRisk({ stripe: deps.stripe });
  }

  refund(input: RefundInput): Promise<ProcessorRefund> {
    return this.cardRisk.refund(input);
  }

  listRefunds(chargeRef: string): Promise<readonly ProcessorRefund[]> {
    return this.cardRisk.listRefunds(chargeRef);
  }

  reversePayout(input: PayoutReversalInput): Promise<{ reversalRef: string }> {
    return this.cardRisk.reversePayout(input);
  }

  balanceMovements(query: BalanceMovementsQuery): Promise<readonly ProcessorBalanceMovement[]> {
    return listStripeBalanceMovements(this.deps.stripe, query);
  }

  /** The PaymentIntent of a charge (an early fraud warning that names only the charge). */
  async paymentIntentOfCharge(chargeId: string): Promise<string | null> {
    const charge = await this.call('charges.retrieve', () => this.deps.stripe.charges.retrieve(chargeId));
    return idOf(charge.payment_intent);
  }

  async createCustomer(input: CreateCustomerInput): Promise<{ customerRef: string }> {
    const customer = await this.call('customers.create', () =>
      this.deps.stripe.customers.create(
        { email: input.email, metadata: { peerpay_account_id: String(input.accountId) } },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { customerRef: customer.id };
  }

  async createPayoutAccount(input: CreatePayoutAccountInput): Promise<{ payoutAccountRef: string }> {
    const account = await this.call('accounts.create', () =>
      this.deps.stripe.accounts.create(
        {
          type: 'express',
          email: input.email,
          capabilities: { transfers: { requested: true } },
          metadata: { peerpay_account_id: String(input.accountId) },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { payoutAccountRef: account.id };
  }

  async createSetupSession(input: SetupSessionInput): Promise<SetupSession> {
    if (input.kind === 'payout') {
      if (!input.payoutAccountRef) throw new Error('Stripe payout setup needs the connected account');
      const accountRef = input.payoutAccountRef;
      const link = await this.call('accountLinks.create', () =>
        this.deps.stripe.accountLinks.create(
          {
            account: accountRef,
            type: 'account_onboarding',
            refresh_url: `${input.linkUrl}/refresh`,
            return_url: `${input.linkUrl}/return`,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { sessionRef: accountRef, url: link.url, completion: 'processor' };
    }
    const bank = input.kind === 'bank_debit';
    const session = await this.call('checkout.sessions.create', () =>
      this.deps.stripe.checkout.sessions.create(
        {
          mode: 'setup',
          payment_method_types: [bank ? 'us_bank_account' : 'card'],
          ...(bank ? { currency: 'usd' } : {}),
          customer: input.customerRef,
          success_url: `${input.linkUrl}/return`,
          cancel_url: `${input.linkUrl}/cancel`,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
          metadata: { peerpay_link_id: input.linkId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    if (!session.url) throw new Error(`Stripe Checkout Session ${session.id} has no url`);
    return { sessionRef: session.id, url: session.url, completion: 'processor' };
  }

  async setupStatus(input: { kind: InstrumentKind; sessionRef: string }): Promise<SetupStatus> {
    if (input.kind === 'payout') {
      const account = await this.call('accounts.retrieve', () => this.deps.stripe.accounts.retrieve(input.sessionRef));
      return account.payouts_enabled ? { state: 'complete', instrumentRef: account.id } : { state: 'open' };
    }
    const session = await this.call('checkout.sessions.retrieve', () => this.deps.stripe.checkout.sessions.retrieve(input.sessionRef));
    if (session.status === 'expired') return { state: 'expired' };
    if (session.status !== 'complete') return { state: 'open' };
    const setupIntentId = idOf(session.setup_intent);
    if (!setupIntentId) throw new Error(`completed Checkout Session ${session.id} has no SetupIntent`);
    return { state: 'complete', instrumentRef: await this.instrumentOfSetupIntent(setupIntentId) };
  }

  /** The instrument a succeeded SetupIntent saved: a card PaymentMethod, or a bank PaymentMethod with its mandate. */
  async instrumentOfSetupIntent(setupIntentId: string): Promise<string> {
    const intent = await this.call('setupIntents.retrieve', () => this.deps.stripe.setupIntents.retrieve(setupIntentId));
    const paymentMethod = idOf(intent.payment_method);
    if (intent.status !== 'succeeded' || !paymentMethod)
      throw new MalformedStripeObjectError(`SetupIntent ${intent.id} has not saved a payment method (${intent.status})`);
    if (!intent.payment_method_types.includes('us_bank_account')) return paymentMethod;
    const mandate = idOf(intent.mandate);
    if (!mandate) throw new MalformedStripeObjectError(`bank SetupIntent ${intent.id} has no mandate`);
    return bankDebitInstrumentRef({ paymentMethod, mandate });
  }

  async chargeCard(input: CardChargeInput): Promise<CardChargeResult> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.deps.stripe.paymentIntents.create(
        {
          amount: stripeMinorAmount(input.amountMinor),
          currency: input.currency.toLowerCase(),
          customer: input.customerRef,
          payment_method: input.cardRef,
          confirm: true,
          off_session: true,
          description: input.description,
          metadata: { peerpay_transfer_id: input.transferId },
        },
        { idempotencyKey: input.idempotencyKey },
      );
    } catch (error) {
      const outcome = cardErrorOutcome(error);
      if (outcome?.kind === 'authentication_required') return { status: 'authentication_required', chargeRef: outcome.paymentIntentId };
      if (outcome?.kind === 'declined') return { status: 'declined', chargeRef: outcome.paymentIntentId, declineCode: outcome.declineCode };
      throw stripeCallError('paymentIntents.create', error);
    }
    switch (intent.status) {
      case 'succeeded':
        return { status: 'succeeded', chargeRef: intent.id };
      case 'requires_action':
        return { status: 'authentication_required', chargeRef: intent.id };
      case 'requires_payment_method':
        return { status: 'declined', chargeRef: intent.id, declineCode: intent.last_payment_error?.decline_code ?? 'card_declined' };
      default:
        // 'processing' and the like: the outcome is not known yet. The transfer stays processing
        // and the payment_intent webhook (or the recovery job) records it.
        throw new Error(`Stripe PaymentIntent ${intent.id} is ${intent.status}; its outcome comes later`);
    }
  }

  async debitBank(input: BankDebitInput): Promise<BankDebitStatus> {
    const { paymentMethod, mandate } = parseBankDebitInstrumentRef(input.mandateRef);
    const intent = await this.call('paymentIntents.create', () =>
      this.deps.stripe.paymentIntents.create(
        {
          amount: stripeMinorAmount(input.amountMinor),
          currency: input.currency.toLowerCase(),
          customer: input.customerRef,
          payment_method_types: ['us_bank_account'],
          payment_method: paymentMethod,
          mandate,
          confirm: true,
          off_session: true,
          description: input.description,
          metadata: { peerpay_transfer_id: input.transferId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return this.debitStatusOf(intent, RECONCILE_AFTER_MS);
  }

  async bankDebitStatus(debitRef: string): Promise<BankDebitStatus> {
    const intent = await this.call('paymentIntents.retrieve', () => this.deps.stripe.paymentIntents.retrieve(debitRef));
    return this.debitStatusOf(intent, RECHECK_MS);
  }

  private debitStatusOf(intent: Stripe.PaymentIntent, recheckInMs: number): BankDebitStatus {
    switch (intent.status) {
      case 'succeeded':
        return { status: 'succeeded', debitRef: intent.id };
      case 'requires_payment_method':
      case 'canceled':
        return { status: 'returned', debitRef: intent.id, returnCode: intent.last_payment_error?.code ?? intent.status };
      default: {
        const now = this.deps.clock.now();
        return {
          status: 'pending',
          debitRef: intent.id,
          expectedSettlementAt: addBusinessDays(new Date(intent.created * 1000), ACH_SETTLEMENT_BUSINESS_DAYS),
          recheckAt: new Date(now.getTime() + recheckInMs),
        };
      }
    }
  }

  async payout(input: PayoutInput): Promise<PayoutResult> {
    try {
      const transfer = await this.deps.stripe.transfers.create(
        {
          amount: stripeMinorAmount(input.amountMinor),
          currency: input.currency.toLowerCase(),
          destination: input.payoutAccountRef,
          transfer_group: input.idempotencyKey,
          metadata: { peerpay_payout_id: input.idempotencyKey },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      // A Transfer to a connected account is made at once; Stripe pays it out from there.
      return { status: 'paid', payoutRef: transfer.id };
    } catch (error) {
      // Stripe refused this payout (the account cannot receive transfers, say): nothing was paid,
      // and the money is the user's again. Network and server errors stay unknown and are retried.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        return { status: 'failed', payoutRef: '', failureCode: error.code ?? 'payout_refused' };
      }
      throw stripeCallError('transfers.create', error);
    }
  }

  async payoutStatus(payoutRef: string): Promise<PayoutResult> {
    // payout() never answers in_transit on Stripe, so nothing asks; saying so beats a guess.
    throw new Error(`Stripe transfers are final when made; there is no in-transit payout ${payoutRef} to look up`);
  }

  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw stripeCallError(operation, error);
    }
  }
}
