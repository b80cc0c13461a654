// Human-readable durations for link lifetimes ("24 hours", "10 minutes"), as the contract shows them.
const UNITS = [
  { ms: 24 * 3600 * 1000, name: 'day' },
  { ms: 3600 * 1000, name: 'hour' },
  { ms: 60 * 1000, name: 'minute' },
  { ms: 1000, name: 'second' },
] as const;

/** The duration in the largest unit that divides it exactly, except that whole days under 3 read as hours. */
export function humanDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new RangeError(`not a positive duration: ${ms}`);
  for (const unit of UNITS) {
    if (ms % unit.ms !== 0) continue;
    // "24 hours" reads better than "1 day" and is what the contract says.
    if (unit.name === 'day' && ms < 3 * unit.ms) continue;
    const count = ms / unit.ms;
    return `${count} ${unit.name}${count === 1 ? '' : 's'}`;
  }
  return `${ms} milliseconds`;
}
