// Circle speaks amounts as decimal strings ("12.5"); peerpay counts bigint base units. The
// conversion is exact string arithmetic: a float would round 0.1 + 0.2, and an amount with more
// fraction digits than the token has is a value no wallet can hold, so it is refused, not rounded.

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export class CircleAmountError extends Error {
  override name = 'CircleAmountError';
}

/** "12.5" with 6 decimals → 12_500_000n. Refuses signs, exponents and excess fraction digits. */
export function decimalToBaseUnits(decimal: string, decimals: number): bigint {
  const match = DECIMAL.exec(decimal);
  if (match === null) throw new CircleAmountError(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) {
    throw new CircleAmountError(`${decimal} has more than ${decimals} decimals`);
  }
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** 12_500_000n with 6 decimals → "12.5"; whole amounts have no point ("3"). */
export function baseUnitsToDecimal(amount: bigint, decimals: number): string {
  if (amount < 0n) throw new CircleAmountError(`negative amount ${amount}`);
  const scale = 10n ** BigInt(decimals);
  const whole = (amount / scale).toString();
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
