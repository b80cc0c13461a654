// The card-risk calls on Stripe (DESIGN §16): refunds, the refunds of a charge, and payout reversals.
//   refund           POST /v1/refunds (payment_intent, amount, reason, metadata; Idempotency-Key = refund id)
//   refunds listed   GET /v1/refunds?payment_intent=… (paged, at most MAX_REFUND_PAGES pages)
//   payout reversal  POST /v1/transfers/{id}/reversals (amount, metadata; Idempotency-Key)
// The client retries network errors, 429s and 5xx with the same Idempotency-Key (stripe-client.ts).
import Stripe from 'stripe';
import type { PayoutReversalInput, ProcessorRefund, RefundInput } from '../payment-processor.js';
import { stripeCallError } from './stripe-errors.js';
import { processorRefundOf } from './stripe-risk-objects.js';

/** Stripe's largest page. */
const REFUND_PAGE_SIZE = 100;
/** A charge is refunded in at most a few parts; more pages than this is a loop, not a charge. */
const MAX_REFUND_PAGES = 10;

export interface StripeCardRisk {
  refund(input: RefundInput): Promise<ProcessorRefund>;
  listRefunds(chargeRef: string): Promise<readonly ProcessorRefund[]>;
  reversePayout(input: PayoutReversalInput): Promise<{ reversalRef: string }>;
}

export function createStripeCardRisk(deps: { stripe: Stripe }): StripeCardRisk {
  return {
    async refund(input) {
      let refund: Stripe.Refund;
      try {
        refund = await deps.stripe.refunds.create(
          {
            payment_intent: input.chargeRef,
            amount: stripeMinorAmount(input.amountMinor),
            reason: input.reason,
            metadata: { peerpay_transfer_id: input.transferId, peerpay_refund_id: input.refundId },
          },
          { idempotencyKey: input.idempotencyKey },
        );
      } catch (error) {
        // Stripe said no (the charge is disputed, already refunded, or has less left than asked):
        // nothing was given back, and asking again would get the same answer, so the refund failed.
        // Network errors, 429s and 5xx stay unknown in outcome and are retried with the same key.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          return {
            refundRef: '',
            chargeRef: input.chargeRef,
            currency: input.currency,
            amountMinor: input.amountMinor,
            status: 'failed',
            refundId: input.refundId,
          };
        }
        throw stripeCallError('refunds.create', error);
      }
      return readRefund(refund);
    },

    async listRefunds(chargeRef) {
      const refunds: ProcessorRefund[] = [];
      let startingAfter: string | undefined;
      for (let page = 0; page < MAX_REFUND_PAGES; page += 1) {
        const list = await call('refunds.list', () =>
          deps.stripe.refunds.list({
            payment_intent: chargeRef,
            limit: REFUND_PAGE_SIZE,
            ...(startingAfter === undefined ? {} : { starting_after: startingAfter }),
          }),
        );
        refunds.push(...list.data.map(readRefund));
        const last = list.data.at(-1);
        if (!list.has_more || last === undefined) return refunds;
        startingAfter = last.id;
      }
      throw new Error(`Stripe lists more than ${MAX_REFUND_PAGES * REFUND_PAGE_SIZE} refunds of ${chargeRef}`);
    },

    async reversePayout(input) {
      const reversal = await call('transfers.createReversal', () =>
        deps.stripe.transfers.createReversal(
          input.payoutRef,
          { amount: stripeMinorAmount(input.amountMinor), metadata: { peerpay_payout_id: input.payoutId } },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { reversalRef: reversal.id };
    },
  };
}

function readRefund(refund: Stripe.Refund): ProcessorRefund {
  const read = processorRefundOf(refund);
  if (!read) throw new Error(`Stripe refund ${refund.id} names no PaymentIntent, or a currency or status peerpay does not know`);
  return read;
}

/** Stripe takes amounts as JSON numbers of minor units; peerpay's maximums keep them exact. */
export function stripeMinorAmount(amountMinor: bigint): number {
  if (amountMinor <= 0n || amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('amount out of Stripe range');
  return Number(amountMinor);
}

async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw stripeCallError(operation, error);
  }
}
