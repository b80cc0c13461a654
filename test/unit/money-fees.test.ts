// Fee rules (DESIGN §4): half-up to the minor unit; fiat fee on top, stablecoin fee deducted.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exponentOf, type Asset } from '../../src/money/assets.js';
import { formatMinor, parseAmount, toJsonNumber } from '../../src/money/amount.js';
import { FIAT_FEE_RATES, STABLECOIN_FEE_RATE, feeFor, fiatFee, stablecoinFee, type FeeRate } from '../../src/money/fees.js';

const MAX = 1_000_000n;
const minorOf = (value: number, asset: Asset): bigint => {
  const parsed = parseAmount(value, asset, MAX);
  if (!parsed.ok) throw new Error(`test amount ${value} ${asset} does not parse: ${parsed.problem}`);
  return parsed.minor;
};

/**
 * Reference rounding, written independently of fees.ts: the exact fee is the rational
 * amount * percent / 100, with the percent taken from the contract's label ("2.49%"), and it is
 * rounded half-up by comparing twice the remainder with the denominator.
 */
function referenceFee(amountMinor: bigint, label: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?%$/.exec(label);
  if (!match) throw new Error(`unexpected label ${label}`);
  const decimals = match[2] ?? '';
  const numerator = amountMinor * BigInt(match[1]! + decimals);
  const denominator = 100n * 10n ** BigInt(decimals.length);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return 2n * remainder >= denominator ? quotient + 1n : quotient;
}

describe('fee rates', () => {
  it("are the contract's: 2.49% instant, 0.8% ach, 1.49% stablecoin", () => {
    expect(FIAT_FEE_RATES.instant).toEqual({ perTenThousand: 249n, label: '2.49%' });
    expect(FIAT_FEE_RATES.ach).toEqual({ perTenThousand: 80n, label: '0.8%' });
    expect(STABLECOIN_FEE_RATE).toEqual({ perTenThousand: 149n, label: '1.49%' });
  });
});

describe('fiatFee', () => {
  it('puts the fee on top: 10.00 USD instant costs 10.25', () => {
    const { fee, totalDeducted } = fiatFee(minorOf(10, 'USD'), 'instant');
    expect(fee).toBe(25n);
    expect(formatMinor(fee, 'USD')).toBe('0.25');
    expect(formatMinor(totalDeducted, 'USD')).toBe('10.25');
  });

  it('charges JPY 1000 instant a fee of 25 yen', () => {
    const { fee, totalDeducted } = fiatFee(minorOf(1000, 'JPY'), 'instant');
    expect(formatMinor(fee, 'JPY')).toBe('25');
    expect(formatMinor(totalDeducted, 'JPY')).toBe('1025');
  });

  it('charges ach 0.8%', () => {
    expect(fiatFee(minorOf(100, 'USD'), 'ach')).toEqual({ fee: 80n, totalDeducted: 10_080n });
    expect(fiatFee(minorOf(10, 'EUR'), 'ach')).toEqual({ fee: 8n, totalDeducted: 1008n });
    expect(fiatFee(minorOf(1000, 'JPY'), 'ach')).toEqual({ fee: 8n, totalDeducted: 1008n });
  });

  it('rounds half-up to the minor unit', () => {
    // 2.49% of 1004 minor = 24.9996 → 25; of 21 minor = 0.5229 → 1.
    expect(fiatFee(1004n, 'instant').fee).toBe(25n);
    expect(fiatFee(21n, 'instant').fee).toBe(1n);
    // 0.8% of 1937 minor = 15.496 → 15; of 1938 minor = 15.504 → 16.
    expect(fiatFee(1937n, 'ach').fee).toBe(15n);
    expect(fiatFee(1938n, 'ach').fee).toBe(16n);
    // Exactly one half rounds up. At 2.49% some amount has an exact fee ending in .5 (249 is prime to
    // 10,000); at 0.8% none does (the fee is amount / 125).
    const rate = FIAT_FEE_RATES.instant.perTenThousand;
    const half = [...Array(10_000).keys()].map((n) => BigInt(n) + 1n).find((n) => (n * rate) % 10_000n === 5_000n);
    expect(half).toBeDefined();
    expect(fiatFee(half!, 'instant').fee).toBe((half! * rate) / 10_000n + 1n);
    // 0.8% of 6875 minor = 55.0 exactly; 2.49% of 10.00 USD = 24.9 → 25.
    expect(fiatFee(6875n, 'ach').fee).toBe(55n);
    expect(fiatFee(1000n, 'instant').fee).toBe(25n);
  });

  it('is at least one minor unit (DESIGN §15): fees that round to zero are one unit', () => {
    // 2.49% of 20 minor = 0.498 → 0 → 1; 0.8% of 62 minor = 0.496 → 0 → 1; 0.8% of 1 yen → 1 yen.
    expect(fiatFee(20n, 'instant')).toEqual({ fee: 1n, totalDeducted: 21n });
    expect(fiatFee(62n, 'ach')).toEqual({ fee: 1n, totalDeducted: 63n });
    expect(fiatFee(1n, 'ach')).toEqual({ fee: 1n, totalDeducted: 2n });
    expect(fiatFee(1n, 'instant')).toEqual({ fee: 1n, totalDeducted: 2n });
  });

  it('refuses a fee of a zero or negative amount', () => {
    expect(() => fiatFee(0n, 'instant')).toThrow(RangeError);
    expect(() => fiatFee(-100n, 'ach')).toThrow(RangeError);
    expect(() => stablecoinFee(0n)).toThrow(RangeError);
  });

  it('equals max(one minor unit, round-half-up(amount * rate)) computed exactly (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.constantFrom('instant' as const, 'ach' as const), (amount, method) => {
        const { fee, totalDeducted } = fiatFee(amount, method);
        const exact = referenceFee(amount, FIAT_FEE_RATES[method].label);
        expect(fee).toBe(exact > 1n ? exact : 1n);
        expect(totalDeducted).toBe(amount + fee);
        expect(fee).toBeGreaterThanOrEqual(1n);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('stablecoinFee', () => {
  it('deducts 1.49%: 10 USDC pays 0.149 and delivers 9.851', () => {
    const result = stablecoinFee(minorOf(10, 'USDC'));
    expect(result).toEqual({ fee: 149_000n, net: 9_851_000n });
    expect(toJsonNumber(result!.fee, 'USDC')).toBe(0.149);
    expect(toJsonNumber(result!.net, 'USDC')).toBe(9.851);
  });

  it('5 USDC delivers 4.9255', () => {
    const result = stablecoinFee(minorOf(5, 'EURC'));
    expect(result).toEqual({ fee: 74_500n, net: 4_925_500n });
    expect(toJsonNumber(result!.net, 'EURC')).toBe(4.9255);
    expect(toJsonNumber(result!.fee, 'EURC')).toBe(0.0745);
  });

  it('rounds half-up to the micro unit, and is at least one micro unit (DESIGN §15)', () => {
    // 149 * n / 10_000: n = 34 → 0.5066 → 1; n = 33 → 0.4917 → 0, raised to 1; n = 1: a fee of
    // one unit leaves nothing, so 0.000001 is refused.
    expect(stablecoinFee(1n)).toBeNull();
    expect(stablecoinFee(2n)).toEqual({ fee: 1n, net: 1n });
    expect(stablecoinFee(33n)).toEqual({ fee: 1n, net: 32n });
    expect(stablecoinFee(34n)).toEqual({ fee: 1n, net: 33n });
    expect(stablecoinFee(101n)).toEqual({ fee: 2n, net: 99n });
    const exactHalf = [...Array(10_000).keys()].map(BigInt).find((n) => (n * 149n) % 10_000n === 5_000n)!;
    expect(stablecoinFee(exactHalf)!.fee).toBe((exactHalf * 149n) / 10_000n + 1n);
  });

  it('fee + net == amount, fee == max(1, round-half-up(amount * 1.49%)), net > 0 (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n, max: MAX * 10n ** BigInt(exponentOf('USDC')) }), (amount) => {
        const result = stablecoinFee(amount);
        // At 1.49% with a one-unit floor something is left of every amount from two units.
        expect(result).not.toBeNull();
        const exact = referenceFee(amount, STABLECOIN_FEE_RATE.label);
        expect(result!.fee).toBe(exact > 1n ? exact : 1n);
        expect(result!.fee).toBeGreaterThanOrEqual(1n);
        expect(result!.fee + result!.net).toBe(amount);
        expect(result!.net).toBeGreaterThan(0n);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('stablecoinFee when nothing would be left', () => {
  it('is null when the fee would take the whole amount', () => {
    // At 1.49% this cannot happen (the fee is at most 1.49% + half a unit), so the guard is checked
    // at rates where it can.
    const half: FeeRate = { perTenThousand: 5_000n, label: '50%' };
    expect(stablecoinFee(1n, half)).toBeNull(); // 0.5 rounds up to 1: nothing left
    expect(stablecoinFee(2n, half)).toEqual({ fee: 1n, net: 1n });
    expect(stablecoinFee(3n, half)).toEqual({ fee: 2n, net: 1n });
    const almostAll: FeeRate = { perTenThousand: 9_999n, label: '99.99%' };
    expect(stablecoinFee(5_000n, almostAll)).toBeNull(); // 4999.5 → 5000
    expect(stablecoinFee(10_000n, almostAll)).toEqual({ fee: 9_999n, net: 1n });
    expect(stablecoinFee(10n ** 12n, { perTenThousand: 10_000n, label: '100%' })).toBeNull();
  });

  it('is null exactly when max(1, round-half-up(amount * rate)) >= amount (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 0, max: 10_000 }), (amount, perTenThousand) => {
        const rate: FeeRate = { perTenThousand: BigInt(perTenThousand), label: `${perTenThousand / 100}%` };
        const exact = referenceFee(amount, rate.label);
        const fee = exact > 1n ? exact : 1n;
        const result = stablecoinFee(amount, rate);
        if (fee >= amount) expect(result).toBeNull();
        else expect(result).toEqual({ fee, net: amount - fee });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('feeFor', () => {
  it('is round-half-up(amount * rate) for any rate from 0% to 200% (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 20_000 }), (amount, perTenThousand) => {
        const rate: FeeRate = { perTenThousand: BigInt(perTenThousand), label: `${perTenThousand / 100}%` };
        expect(feeFor(amount, rate)).toBe(referenceFee(amount, rate.label));
      }),
      { numRuns: 3000 },
    );
  });
});
