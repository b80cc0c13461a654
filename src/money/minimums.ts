// The smallest fiat charge (DESIGN §15): what a card network or bank will take, Stripe's minimum
// charge amounts, applied to the total charged (amount + fee) in both modes, so that sandbox and
// live refuse the same transfers.
import type { FiatCurrency } from './assets.js';
import { fiatFee, type FiatPaymentMethod } from './fees.js';

export const MINIMUM_CHARGE_MINOR: Readonly<Record<FiatCurrency, bigint>> = Object.freeze({
  USD: 50n,
  EUR: 50n,
  GBP: 30n,
  JPY: 50n,
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
