import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MINIMUM_CHARGE_MINOR, minimumFiatAmountMinor } from '../../src/money/minimums.js';
import { fiatFee, type FiatPaymentMethod } from '../../src/money/fees.js';
import { FIAT_CURRENCIES, TOKENS } from '../../src/money/assets.js';
import { STABLECOIN_MINIMUM_MINOR } from '../../src/money/minimums.js';

const METHODS: FiatPaymentMethod[] = ['instant', 'ach'];

describe('the smallest fiat amount', () => {
  it('is the least amount whose total reaches the minimum charge, for every currency and method', () => {
    for (const currency of FIAT_CURRENCIES) {
      for (const method of METHODS) {
        const smallest = minimumFiatAmountMinor(currency, method);
        expect(fiatFee(smallest, method).totalDeducted).toBeGreaterThanOrEqual(MINIMUM_CHARGE_MINOR[currency]);
        expect(fiatFee(smallest - 1n, method).totalDeducted).toBeLessThan(MINIMUM_CHARGE_MINOR[currency]);
      }
    }
  });

  it('matches a direct search: every amount at or above it is allowed, every one below is not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIAT_CURRENCIES),
        fc.constantFrom(...METHODS),
        fc.bigInt({ min: 1n, max: 10_000n }),
        (currency, method, amount) => {
          const allowed = fiatFee(amount, method).totalDeducted >= MINIMUM_CHARGE_MINOR[currency];
          expect(amount >= minimumFiatAmountMinor(currency, method)).toBe(allowed);
        },
      ),
    );
  });

  it('is Stripe’s minimum charge less the fee (at least one minor unit): 0.49 USD by card and by ACH, 0.29 GBP and 49 JPY by card', () => {
    expect(minimumFiatAmountMinor('USD', 'instant')).toBe(49n);
    // 0.8% of 0.49 rounds to 0.00, and the fee is at least 0.01: 0.49 + 0.01 reaches 0.50.
    expect(minimumFiatAmountMinor('USD', 'ach')).toBe(49n);
    expect(minimumFiatAmountMinor('JPY', 'ach')).toBe(49n);
    expect(minimumFiatAmountMinor('GBP', 'instant')).toBe(29n);
    expect(minimumFiatAmountMinor('JPY', 'instant')).toBe(49n);
  });
});

describe('the smallest stablecoin operation (DESIGN §15)', () => {
  it('is 0.01 for a transfer and 1.00 for a withdrawal, in USDC and EURC', () => {
    for (const token of TOKENS) {
      expect(STABLECOIN_MINIMUM_MINOR.transfer[token]).toBe(10_000n);
      expect(STABLECOIN_MINIMUM_MINOR.withdrawal[token]).toBe(1_000_000n);
    }
  });
});
