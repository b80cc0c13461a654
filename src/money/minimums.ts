// The smallest fiat charge (DESIGN §15): what a card network or bank will take, Stripe's minimum
// charge amounts, applied to the total charged (amount + fee) in both modes, so that sandbox and
// live refuse the same transfers. And the smallest stablecoin operations: a transfer of 0.01, a
// withdrawal of 1.00 (a withdrawal costs the hot wallet gas, which its fee must cover).
import type { FiatCurrency, Token } from './assets.js';
import { fiatFee, type FiatPaymentMethod } from './fees.js';

export const MINIMUM_CHARGE_MINOR: Readonly<Record<FiatCurrency, bigint>> = Object.freeze({
  USD: 50n,
  EUR: 50n,
  GBP: 30n,
  JPY: 50n,
});

export type StablecoinOperation = 'transfer' | 'withdrawal';

/** The smallest amount (before the fee) of a stablecoin operation, in minor units of the token. */
export const STABLECOIN_MINIMUM_MINOR: Readonly<Record<StablecoinOperation, Readonly<Record<Token, bigint>>>> = Object.freeze({
  transfer: Object.freeze({ USDC: 10_000n, EURC: 10_000n }),
  withdrawal: Object.freeze({ USDC: 1_000_000n, EURC: 1_000_000n }),
});

/**
 * The smallest amount whose total (amount + fee) reaches the minimum charge. amount + fee grows
 * strictly with the amount (the fee never falls as the amount grows), so a bisection finds it.
 */
export function minimumFiatAmountMinor(currency: FiatCurrency, method: FiatPaymentMethod): bigint {
  const minimum = MINIMUM_CHARGE_MINOR[currency];
  let low = 1n;
  let high = minimum;
  // Invariant: total(high) >= minimum; every amount below low has total < minimum.
  for (let round = 0; round < 64 && low < high; round++) {
    const middle = (low + high) / 2n;
    if (fiatFee(middle, method).totalDeducted >= minimum) high = middle;
    else low = middle + 1n;
  }
  return high;
}
