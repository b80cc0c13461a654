// Circle's decimal amounts and peerpay's base units convert exactly both ways (no floats), and an
// amount with more fraction digits than the token has is refused rather than rounded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseUnitsToDecimal, CircleAmountError, decimalToBaseUnits } from '../../src/adapters/circle/circle-amounts.js';

const amounts = fc.bigInt({ min: 0n, max: 10n ** 30n });
const decimals = fc.integer({ min: 0, max: 18 });

describe('Circle amounts', () => {
  it('base units → decimal → base units is the identity', () => {
    fc.assert(
      fc.property(amounts, decimals, (amount, places) => {
        expect(decimalToBaseUnits(baseUnitsToDecimal(amount, places), places)).toBe(amount);
      }),
    );
  });

  it('a decimal with trailing zeros reads as the same amount; its digits are the base units', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        (amount, places, zeros) => {
          const text = amount.toString().padStart(places + 1, '0');
          const decimal = places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}${'0'.repeat(zeros)}`;
          expect(decimalToBaseUnits(decimal, places)).toBe(amount);
        },
      ),
    );
  });

  it('examples at 6 decimals', () => {
    expect(decimalToBaseUnits('12.5', 6)).toBe(12_500_000n);
    expect(decimalToBaseUnits('0.000001', 6)).toBe(1n);
    expect(decimalToBaseUnits('3', 6)).toBe(3_000_000n);
    expect(decimalToBaseUnits('0.1', 6) + decimalToBaseUnits('0.2', 6)).toBe(decimalToBaseUnits('0.3', 6));
    expect(baseUnitsToDecimal(12_500_000n, 6)).toBe('12.5');
    expect(baseUnitsToDecimal(1n, 6)).toBe('0.000001');
    expect(baseUnitsToDecimal(3_000_000n, 6)).toBe('3');
    expect(baseUnitsToDecimal(123_456_789_012_345_678_901n, 6)).toBe('123456789012345.678901');
  });

  it('refuses more decimals than the token has, signs, exponents and other text', () => {
    for (const bad of ['0.0000001', '1.1234567', '-1', '+1', '1e6', '1.', '.5', '', ' 1', '1,5', 'NaN', '0x10']) {
      expect(() => decimalToBaseUnits(bad, 6), bad).toThrow(CircleAmountError);
    }
    expect(() => baseUnitsToDecimal(-1n, 6)).toThrow(CircleAmountError);
  });
});
