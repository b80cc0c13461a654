// Amount parsing and formatting (DESIGN §4): bigint minor units, exact decimal strings, no floats.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exponentOf, FIAT_CURRENCIES, TOKENS, type Asset } from '../../src/money/assets.js';
import { formatMinor, formatMinorTrimmed, parseAmount, toJsonNumber } from '../../src/money/amount.js';

const MAX = 1_000_000n;
const ASSETS: readonly Asset[] = [...FIAT_CURRENCIES, ...TOKENS];

const ok = (minor: bigint) => ({ ok: true, minor });
const bad = (problem: string) => ({ ok: false, problem });

describe('asset exponents', () => {
  it('are USD/EUR/GBP 2, JPY 0, USDC/EURC 6', () => {
    expect(Object.fromEntries(ASSETS.map((a) => [a, exponentOf(a)]))).toEqual({ USD: 2, EUR: 2, GBP: 2, JPY: 0, USDC: 6, EURC: 6 });
  });
});

describe('parseAmount', () => {
  it('reads JSON numbers into minor units of each asset', () => {
    expect(parseAmount(10, 'USD', MAX)).toEqual(ok(1000n));
    expect(parseAmount(10.25, 'USD', MAX)).toEqual(ok(1025n));
    expect(parseAmount(0.01, 'EUR', MAX)).toEqual(ok(1n));
    expect(parseAmount(19.9, 'GBP', MAX)).toEqual(ok(1990n));
    expect(parseAmount(1000, 'JPY', MAX)).toEqual(ok(1000n));
    expect(parseAmount(1, 'JPY', MAX)).toEqual(ok(1n));
    expect(parseAmount(9.851, 'USDC', MAX)).toEqual(ok(9_851_000n));
    expect(parseAmount(0.000001, 'EURC', MAX)).toEqual(ok(1n));
    expect(parseAmount(123456.123456, 'USDC', MAX)).toEqual(ok(123_456_123_456n));
  });

  it('reads a number through its shortest round-trip string, never through float arithmetic', () => {
    // 1.1 * 100 is 110.00000000000001 in floats; the amount is still exactly 110 minor units.
    expect(parseAmount(1.1, 'USD', MAX)).toEqual(ok(110n));
    expect(parseAmount(4.35, 'USD', MAX)).toEqual(ok(435n));
    expect(parseAmount(0.29, 'USD', MAX)).toEqual(ok(29n));
    expect(parseAmount(1.005, 'USDC', MAX)).toEqual(ok(1_005_000n));
    // 0.1 + 0.2 is 0.30000000000000004: that number has 17 decimals and is refused, not rounded.
    expect(parseAmount(0.1 + 0.2, 'USD', MAX)).toEqual(bad('too_many_decimals'));
  });

  it('reads exponent notation', () => {
    expect(String(1e-7)).toBe('1e-7');
    expect(parseAmount(1e-7, 'USDC', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(1e-6, 'USDC', MAX)).toEqual(ok(1n));
    expect(parseAmount(2.5e-6, 'USDC', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(5e-324, 'USDC', MAX)).toEqual(bad('too_many_decimals'));
    expect(String(1e21)).toBe('1e+21');
    expect(parseAmount(1e21, 'USD', MAX)).toEqual(bad('too_large'));
    expect(parseAmount(1e21, 'USD', 10n ** 22n)).toEqual(ok(10n ** 23n));
    expect(parseAmount(1.5e21, 'JPY', 10n ** 22n)).toEqual(ok(15n * 10n ** 20n));
    expect(parseAmount(Number.MAX_VALUE, 'USD', MAX)).toEqual(bad('too_large'));
    expect(parseAmount('1e3', 'JPY', MAX)).toEqual(ok(1000n));
    expect(parseAmount('1.5E2', 'USD', MAX)).toEqual(ok(15000n));
    expect(parseAmount('25e-2', 'USD', MAX)).toEqual(ok(25n));
    expect(parseAmount('25e-3', 'USD', MAX)).toEqual(bad('too_many_decimals'));
  });

  it('refuses more decimals than the asset has', () => {
    expect(parseAmount(10.001, 'USD', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(0.005, 'EUR', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(1.999, 'GBP', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(0.5, 'JPY', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(1000.1, 'JPY', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(1.0000001, 'USDC', MAX)).toEqual(bad('too_many_decimals'));
    expect(parseAmount(0.0000005, 'EURC', MAX)).toEqual(bad('too_many_decimals'));
    // Trailing zeros are not decimals of the amount.
    expect(parseAmount('10.2500', 'USD', MAX)).toEqual(ok(1025n));
    expect(parseAmount('1000.0', 'JPY', MAX)).toEqual(ok(1000n));
  });

  it('refuses zero and negative amounts', () => {
    for (const asset of ASSETS) {
      expect(parseAmount(0, asset, MAX)).toEqual(bad('not_positive'));
      expect(parseAmount(-0, asset, MAX)).toEqual(bad('not_positive'));
      expect(parseAmount(-1, asset, MAX)).toEqual(bad('not_positive'));
      expect(parseAmount(-0.01, asset, MAX)).toEqual(bad('not_positive'));
      expect(parseAmount(-1e21, asset, MAX)).toEqual(bad('not_positive'));
      expect(parseAmount('0.00', asset, MAX)).toEqual(bad('not_positive'));
      expect(parseAmount('-5', asset, MAX)).toEqual(bad('not_positive'));
    }
  });

  it('refuses NaN, Infinity and text that is not a decimal number', () => {
    for (const input of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(parseAmount(input, 'USD', MAX).ok).toBe(false);
    }
    expect(parseAmount(Number.NaN, 'USD', MAX)).toEqual(bad('not_a_number'));
    expect(parseAmount(Number.POSITIVE_INFINITY, 'USDC', MAX)).toEqual(bad('not_a_number'));
    for (const text of ['', ' ', 'abc', '1,5', '0x10', '1.2.3', '.5', '5.', 'NaN', 'Infinity', '1e', '+1', '+-1', '1 000']) {
      expect(parseAmount(text, 'USD', MAX)).toEqual(bad('not_a_number'));
    }
  });

  it('accepts the maximum and refuses anything over it', () => {
    expect(parseAmount(1_000_000, 'USD', MAX)).toEqual(ok(100_000_000n));
    expect(parseAmount(1_000_000.01, 'USD', MAX)).toEqual(bad('too_large'));
    expect(parseAmount(1_000_000, 'JPY', MAX)).toEqual(ok(1_000_000n));
    expect(parseAmount(1_000_001, 'JPY', MAX)).toEqual(bad('too_large'));
    expect(parseAmount(1_000_000, 'USDC', MAX)).toEqual(ok(1_000_000_000_000n));
    expect(parseAmount(1_000_000.000001, 'USDC', MAX)).toEqual(bad('too_large'));
    expect(parseAmount(1e7, 'EURC', MAX)).toEqual(bad('too_large'));
    // The limit is configuration.
    expect(parseAmount(50.01, 'USD', 50n)).toEqual(bad('too_large'));
    expect(parseAmount(50, 'USD', 50n)).toEqual(ok(5000n));
  });

  it('reads every JSON number exactly as its shortest decimal string says (property)', () => {
    // Independent reference: the amount is the decimal the number prints as, scaled by the exponent.
    const reference = (value: number, asset: Asset): bigint | null => {
      const scale = exponentOf(asset);
      const [mantissa, exp = '0'] = String(value).split('e');
      const [whole, fraction = ''] = mantissa!.split('.');
      const shift = Number(exp) + scale - fraction.length;
      const digits = BigInt(whole! + fraction);
      if (shift >= 0) return digits * 10n ** BigInt(shift);
      const divisor = 10n ** BigInt(-shift);
      return digits % divisor === 0n ? digits / divisor : null;
    };
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: 2e6, noNaN: true }), fc.constantFrom(...ASSETS), (value, asset) => {
        const expected = reference(value, asset);
        const parsed = parseAmount(value, asset, MAX);
        if (expected === null) expect(parsed).toEqual(bad('too_many_decimals'));
        else if (expected > MAX * 10n ** BigInt(exponentOf(asset))) expect(parsed).toEqual(bad('too_large'));
        else expect(parsed).toEqual(ok(expected));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('formatMinor', () => {
  it("prints exactly the asset's decimals", () => {
    expect(formatMinor(1025n, 'USD')).toBe('10.25');
    expect(formatMinor(1000n, 'USD')).toBe('10.00');
    expect(formatMinor(25n, 'EUR')).toBe('0.25');
    expect(formatMinor(1n, 'GBP')).toBe('0.01');
    expect(formatMinor(0n, 'USD')).toBe('0.00');
    expect(formatMinor(1000n, 'JPY')).toBe('1000');
    expect(formatMinor(25n, 'JPY')).toBe('25');
    expect(formatMinor(0n, 'JPY')).toBe('0');
    expect(formatMinor(9_851_000n, 'USDC')).toBe('9.851000');
    expect(formatMinor(1n, 'EURC')).toBe('0.000001');
    expect(formatMinor(-1025n, 'USD')).toBe('-10.25');
    expect(formatMinor(-5n, 'USD')).toBe('-0.05');
    expect(formatMinor(-7n, 'JPY')).toBe('-7');
    // Far beyond what a double holds exactly.
    expect(formatMinor(123_456_789_012_345_678_901n, 'USD')).toBe('1234567890123456789.01');
  });
});

describe('formatMinorTrimmed and toJsonNumber', () => {
  it('print the shortest exact decimal', () => {
    expect(formatMinorTrimmed(9_851_000n, 'USDC')).toBe('9.851');
    expect(formatMinorTrimmed(1_000_000n, 'USDC')).toBe('1');
    expect(formatMinorTrimmed(10_000_000n, 'EURC')).toBe('10');
    expect(formatMinorTrimmed(1n, 'USDC')).toBe('0.000001');
    expect(formatMinorTrimmed(0n, 'USDC')).toBe('0');
    expect(formatMinorTrimmed(1000n, 'JPY')).toBe('1000');
    expect(formatMinorTrimmed(1000n, 'USD')).toBe('10');
    expect(formatMinorTrimmed(1050n, 'USD')).toBe('10.5');
    expect(formatMinorTrimmed(-4_925_500n, 'USDC')).toBe('-4.9255');
    expect(toJsonNumber(9_851_000n, 'USDC')).toBe(9.851);
    expect(toJsonNumber(4_925_500n, 'USDC')).toBe(4.9255);
    expect(toJsonNumber(149_000n, 'USDC')).toBe(0.149);
    expect(toJsonNumber(1n, 'USDC')).toBe(0.000001);
    expect(toJsonNumber(1000n, 'JPY')).toBe(1000);
    expect(toJsonNumber(1025n, 'USD')).toBe(10.25);
    expect(JSON.stringify({ amount: toJsonNumber(1_000_000_000_000n, 'USDC') })).toBe('{"amount":1000000}');
  });
});

describe('round trips (property)', () => {
  const assetAndMinor = fc
    .constantFrom(...ASSETS)
    .chain((asset) => fc.record({ asset: fc.constant(asset), minor: fc.bigInt({ min: 1n, max: MAX * 10n ** BigInt(exponentOf(asset)) }) }));

  it('formatMinor → parseAmount gives back the amount, for every asset', () => {
    fc.assert(
      fc.property(assetAndMinor, ({ asset, minor }) => {
        const text = formatMinor(minor, asset);
        expect(text).toMatch(exponentOf(asset) === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${exponentOf(asset)}}$`));
        expect(parseAmount(text, asset, MAX)).toEqual(ok(minor));
      }),
      { numRuns: 3000 },
    );
  });

  it('formatMinorTrimmed and toJsonNumber → parseAmount give back the amount, for every asset', () => {
    fc.assert(
      fc.property(assetAndMinor, ({ asset, minor }) => {
        const trimmed = formatMinorTrimmed(minor, asset);
        expect(trimmed).not.toMatch(/\.\d*0$|\.$/);
        expect(parseAmount(trimmed, asset, MAX)).toEqual(ok(minor));
        const json = toJsonNumber(minor, asset);
        // The JSON text of the number is the exact decimal, and reading it back gives the amount.
        expect(JSON.stringify(json)).toBe(trimmed);
        expect(parseAmount(JSON.parse(JSON.stringify(json)) as number, asset, MAX)).toEqual(ok(minor));
      }),
      { numRuns: 3000 },
    );
  });

  it('formatMinor is exact for any bigint, negative or huge', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ASSETS), fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), (asset, minor) => {
        const text = formatMinor(minor, asset);
        const scale = exponentOf(asset);
        const unsigned = text.replace(/^-/, '');
        expect(text.startsWith('-')).toBe(minor < 0n);
        expect(BigInt(unsigned.replace('.', ''))).toBe(minor < 0n ? -minor : minor);
        expect(unsigned.split('.')[1]?.length ?? 0).toBe(scale);
        expect(unsigned).toMatch(/^(0|[1-9]\d*)(\.\d+)?$/);
      }),
      { numRuns: 2000 },
    );
  });
});
