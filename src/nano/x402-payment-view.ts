// An x402 micro-payment as an event shows it (x402.payment.settled, DESIGN §13); the id is the
// X-Payment-Id the paid answer carried.
import { toJsonNumber } from '../money/amount.js';

export function presentX402Payment(input: { id: string; endpoint: string; amountMinor: bigint; source: 'balance'; settledAt: Date }) {
  return {
    paymentId: input.id,
    endpoint: input.endpoint,
    amount: toJsonNumber(input.amountMinor, 'USDC'),
    currency: 'USDC',
    source: input.source,
    settledAt: input.settledAt.toISOString(),
  };
}
