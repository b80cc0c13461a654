// The value axis of a chart, in exact integers: the top of the axis is the smallest "nice" step
// (1, 2 or 5 times a power of ten, in minor units) times TICKS that reaches the largest value, so
// every tick label is an exact amount. Only the pixel position of a value is a float.

/** Ticks above zero on the value axis. */
export const TICKS = 4;

/** The smallest 1/2/5 × 10^k that is at least `value` (at least 1). */
export function niceStep(value: bigint): bigint {
  if (value <= 1n) return 1n;
  let power = 1n;
  while (power * 10n < value) power *= 10n;
  for (const factor of [1n, 2n, 5n, 10n]) if (power * factor >= value) return power * factor;
  return power * 10n;
}

/** The axis: its step and its top (TICKS steps), covering `max`. */
export function valueAxis(max: bigint): { step: bigint; top: bigint; ticks: bigint[] } {
  const positive = max > 0n ? max : 0n;
  const step = niceStep((positive + BigInt(TICKS) - 1n) / BigInt(TICKS));
  return { step, top: step * BigInt(TICKS), ticks: Array.from({ length: TICKS + 1 }, (_, i) => step * BigInt(i)) };
}

/** Where `value` sits on an axis of height `top`, from 0 (bottom) to 1 (top): a float for pixels only. */
export function fraction(value: bigint, top: bigint): number {
  if (top <= 0n) return 0;
  const clamped = value < 0n ? 0n : value > top ? top : value;
  // Scaled in integers first, so that values beyond 2^53 keep their place.
  return Number((clamped * 1_000_000n) / top) / 1_000_000;
}
