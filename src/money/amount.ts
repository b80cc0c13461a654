// Amounts are bigint minor units. Parsing and formatting work on decimal strings only, so no
// value ever passes through floating point arithmetic.
import { exponentOf, type Asset } from './assets.js';

export type AmountProblem = 'not_a_number' | 'not_positive' | 'too_many_decimals' | 'too_large';

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; problem: AmountProblem };

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads an amount given as a JSON number (through its shortest round-trip decimal string, which is
 * what String() yields) or as a decimal string, into minor units of `asset`.
 */
export function parseAmount(input: number | string, asset: Asset, maxMajor: bigint): ParsedAmount {
  if (typeof input === 'number' && !Number.isFinite(input)) return { ok: false, problem: 'not_a_number' };
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (text.startsWith('-')) return { ok: false, problem: 'not_positive' };
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, problem: 'not_a_number' };
  const [, intPart = '', fracPart = '', expPart] = match;
  // Shift the decimal point by the exponent, on the digit string.
  const exponent = expPart === undefined ? 0 : Number(expPart);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return { ok: false, problem: 'not_a_number' };
  let digits = intPart + fracPart;
  let pointAt = intPart.length + exponent;
  if (pointAt < 0) {
    digits = '0'.repeat(-pointAt) + digits;
    pointAt = 0;
  }
  if (pointAt > digits.length) digits = digits + '0'.repeat(pointAt - digits.length);
  const whole = digits.slice(0, pointAt) || '0';
  const fraction = digits.slice(pointAt).replace(/0+$/, '');
  const scale = exponentOf(asset);
  if (fraction.length > scale) return { ok: false, problem: 'too_many_decimals' };
  const minor = BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  if (minor <= 0n) return { ok: false, problem: 'not_positive' };
  if (minor > maxMajor * 10n ** BigInt(scale)) return { ok: false, problem: 'too_large' };
  return { ok: true, minor };
}

/** Exact decimal string with exactly the asset's decimals: 1025n USD → "10.25", 1000n JPY → "1000". */
export function formatMinor(minor: bigint, asset: Asset): string {
  const scale = exponentOf(asset);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Shortest decimal string: 9851000n USDC → "9.851". Used where the contract wants a JSON number. */
export function formatMinorTrimmed(minor: bigint, asset: Asset): string {
  const exact = formatMinor(minor, asset);
  return exact.includes('.') ? exact.replace(/0+$/, '').replace(/\.$/, '') : exact;
}

/**
 * The JSON number for an amount. The conversion parses a decimal string (the nearest double to an
 * exact decimal with at most 6 decimals and at most 16 significant digits round-trips exactly),
 * never arithmetic on floats.
 */
export function toJsonNumber(minor: bigint, asset: Asset): number {
  return Number(formatMinorTrimmed(minor, asset));
}
