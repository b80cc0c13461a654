// The input rules shared by stablecoin operations: token names, amounts, and the fee guard.
import { describe, expect, it } from 'vitest';
import { priceOperation, priceWithFee, tokenAmountOf, tokenOf } from '../../src/stablecoin/stablecoin-amounts.js';
import { AppError } from '../../src/platform/errors.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  throw new Error('no error');
}

describe('tokenOf', () => {
  it('reads USDC and EURC in any case', () => {
    expect(tokenOf('USDC')).toBe('USDC');
    expect(tokenOf(' eurc ')).toBe('EURC');
  });
  it.each(['USDT', 'USD', 'EUR', 'DAI', ''])('refuses %s as unsupported_currency', (raw) => {
    expect(codeOf(() => tokenOf(raw))).toBe('unsupported_currency');
  });
});

describe('tokenAmountOf', () => {
  it('reads numbers and decimal strings exactly, to 6 decimals', () => {
    expect(tokenAmountOf(10, 'USDC', 1_000_000n)).toBe(10_000_000n);
    expect(tokenAmountOf(0.000001, 'USDC', 1_000_000n)).toBe(1n);
    expect(tokenAmountOf('1.234567', 'EURC', 1_000_000n)).toBe(1_234_567n);
    expect(tokenAmountOf(1_000_000, 'USDC', 1_000_000n)).toBe(1_000_000_000_000n);
  });
  it.each([
    [0, 'invalid_amount'],
    [-1, 'invalid_amount'],
    [1.0000001, 'invalid_amount'],
    [Number.NaN, 'invalid_amount'],
    [Number.POSITIVE_INFINITY, 'invalid_amount'],
    [1_000_000.000001, 'amount_too_large'],
    ['abc', 'invalid_amount'],
  ] as const)('refuses %s as %s', (input, code) => {
    expect(codeOf(() => tokenAmountOf(input, 'USDC', 1_000_000n))).toBe(code);
  });
});

describe('priceWithFee', () => {
  it('deducts 1.49% rounded half-up', () => {
    expect(priceWithFee(10_000_000n)).toEqual({ amountMinor: 10_000_000n, feeMinor: 149_000n, netMinor: 9_851_000n });
    expect(priceWithFee(5_000n)).toEqual({ amountMinor: 5_000n, feeMinor: 75n, netMinor: 4_925n });
    // Every fee is at least one minor unit (DESIGN §15): 0.000033 pays 0.000001; 0.000001 would leave nothing.
    expect(priceWithFee(33n)).toEqual({ amountMinor: 33n, feeMinor: 1n, netMinor: 32n });
    expect(codeOf(() => priceWithFee(1n))).toBe('invalid_amount');
  });
  it('refuses with invalid_amount an amount whose fee would leave nothing (at a rate where that can happen)', () => {
    const everything = { perTenThousand: 10_000n, label: '100%' };
    expect(codeOf(() => priceWithFee(7n, everything))).toBe('invalid_amount');
    // Half: 1 unit pays a fee of 0.5, rounded up to 1, leaving nothing.
    expect(codeOf(() => priceWithFee(1n, { perTenThousand: 5_000n, label: '50%' }))).toBe('invalid_amount');
    expect(priceWithFee(3n, { perTenThousand: 5_000n, label: '50%' })).toEqual({ amountMinor: 3n, feeMinor: 2n, netMinor: 1n });
  });
});

describe('priceOperation', () => {
  it('refuses a transfer under 0.01 and a withdrawal under 1.00 with amount_too_small naming the minimum', () => {
    const problem = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error as { code: string; extra: Record<string, unknown> };
      }
      throw new Error('not refused');
    };
    expect(problem(() => priceOperation(9_999n, 'USDC', 'transfer'))).toMatchObject({
      code: 'amount_too_small',
      extra: { minimum: '0.01' },
    });
    expect(problem(() => priceOperation(33n, 'EURC', 'transfer'))).toMatchObject({ code: 'amount_too_small', extra: { minimum: '0.01' } });
    expect(problem(() => priceOperation(999_999n, 'EURC', 'withdrawal'))).toMatchObject({
      code: 'amount_too_small',
      extra: { minimum: '1' },
    });
    expect(priceOperation(10_000n, 'USDC', 'transfer')).toEqual({ amountMinor: 10_000n, feeMinor: 149n, netMinor: 9_851n });
    expect(priceOperation(1_000_000n, 'USDC', 'withdrawal')).toEqual({ amountMinor: 1_000_000n, feeMinor: 14_900n, netMinor: 985_100n });
  });
});
