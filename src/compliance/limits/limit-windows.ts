// The arithmetic of the rolling windows (decision 0036). Volume is kept in buckets: hourly ones
// for the 24-hour window, daily ones (UTC days) for the 30-day window; every movement adds to one
// of each. A window at time t counts every bucket that STARTS at or after the start of t's bucket
// less the window's length, so it covers [floor(t) - length, t], a superset of the true rolling
// window (t - length, t]: volume counts for at least the window's length (and at most one bucket
// longer), so the limit is never passed in any true window, only sometimes reached a little late.
import type { LimitWindow } from '../../config/limit-settings.js';

export type { LimitWindow };
export type BucketSpan = 'hour' | 'day';

export const HOUR_MS = 3600 * 1000;
export const DAY_MS = 24 * HOUR_MS;

export const WINDOWS: readonly LimitWindow[] = ['day', 'month'];

/** The buckets each window reads, and how long the window is. */
export const WINDOW_SHAPE: Readonly<Record<LimitWindow, { span: BucketSpan; spanMs: number; lengthMs: number }>> = {
  day: { span: 'hour', spanMs: HOUR_MS, lengthMs: DAY_MS },
  month: { span: 'day', spanMs: DAY_MS, lengthMs: 30 * DAY_MS },
};

/** Buckets older than this are never read again (the longest window plus its bucket, and a day to spare). */
export const BUCKETS_KEPT_MS = 32 * DAY_MS;

/** The start of the bucket of `span` that `at` falls in. */
export function bucketStart(at: Date, span: BucketSpan): Date {
  const spanMs = span === 'hour' ? HOUR_MS : DAY_MS;
  return new Date(Math.floor(at.getTime() / spanMs) * spanMs);
}

/** The earliest bucket start `window` counts at `at`. */
export function windowFrom(at: Date, window: LimitWindow): Date {
  const shape = WINDOW_SHAPE[window];
  return new Date(bucketStart(at, shape.span).getTime() - shape.lengthMs);
}

export interface Bucket {
  span: BucketSpan;
  startsAt: Date;
  volume: bigint;
}

/**
 * What `window` counts at `at`: the volume of the buckets from its start on. Buckets after `at`
 * count too (a movement of the same batch stamped a moment later, or another process's clock a
 * little ahead): counting more is safe, and it makes the bound hold whatever order movements are
 * checked in.
 */
export function usedIn(buckets: readonly Bucket[], window: LimitWindow, at: Date): bigint {
  const shape = WINDOW_SHAPE[window];
  const from = windowFrom(at, window).getTime();
  let used = 0n;
  for (const b of buckets) if (b.span === shape.span && b.startsAt.getTime() >= from) used += b.volume;
  return used;
}

/**
 * Seconds from `at` until enough volume has left `window` for `amount` to fit under `limit`, or
 * null when it never can (the amount alone is over the limit). A bucket leaves the window when
 * its start falls before the window's start: at its start plus the window's length plus one span.
 */
export function secondsUntilFits(
  buckets: readonly Bucket[],
  input: { window: LimitWindow; at: Date; limit: bigint; amount: bigint },
): number | null {
  if (input.amount > input.limit) return null;
  const shape = WINDOW_SHAPE[input.window];
  const from = windowFrom(input.at, input.window).getTime();
  const counted = buckets
    .filter((b) => b.span === shape.span && b.startsAt.getTime() >= from)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  let excess = counted.reduce((sum, b) => sum + b.volume, 0n) + input.amount - input.limit;
  if (excess <= 0n) return 0;
  for (const bucket of counted) {
    excess -= bucket.volume;
    if (excess <= 0n) {
      const leavesAt = bucket.startsAt.getTime() + shape.lengthMs + shape.spanMs;
      return Math.max(1, Math.ceil((leavesAt - input.at.getTime()) / 1000));
    }
  }
  // Unreachable: once every counted bucket has left, only the amount is left, and it fits.
  return null;
}
