// What a limit check decides, in memory, from an account's standing: the effective limits (an
// operator's override, else the settings, a fraction of them for a new account), the volume each
// window counts, and the refusal of a movement that would pass one.
import { formatMinor, formatMinorTrimmed } from '../../money/amount.js';
import { isToken, type Asset } from '../../money/assets.js';
import { AppError } from '../../platform/errors.js';
import type { LimitSettings, WindowLimits } from '../../config/limit-settings.js';
import type { AccountStanding } from './limits-repository.js';
import { DAY_MS, WINDOWS, secondsUntilFits, usedIn, type Bucket, type LimitWindow } from './limit-windows.js';

export type Rail = 'fiat' | 'stablecoin';

export function railOf(asset: Asset): Rail {
  return isToken(asset) ? 'stablecoin' : 'fiat';
}

/** Limits and figures as the API writes them: the fiat rail's decimals in full, tokens' trimmed, as each rail's other answers do. */
export function decimal(minor: bigint, asset: Asset): string {
  return isToken(asset) ? formatMinorTrimmed(minor, asset) : formatMinor(minor, asset);
}

export function effectiveLimits(settings: LimitSettings, standing: AccountStanding, asset: Asset, at: Date): WindowLimits {
  const young = at.getTime() - standing.createdAt.getTime() < settings.newAccountDays * DAY_MS;
  const base = settings.limits[asset];
  const override = standing.overrides.get(asset);
  const of = (window: LimitWindow): bigint => override?.[window] ?? (young ? base[window] / settings.newAccountDivisor : base[window]);
  return { day: of('day'), month: of('month') };
}

export interface Exceeded {
  window: LimitWindow;
  limit: bigint;
  remaining: bigint;
  /** Seconds until the amount fits; null when it never can. */
  retryAfter: number | null;
}

/** The window `amount` would pass (the one that frees up last, when both), or null when it fits. */
export function exceeded(limits: WindowLimits, buckets: readonly Bucket[], amount: bigint, at: Date): Exceeded | null {
  let worst: Exceeded | null = null;
  for (const window of WINDOWS) {
    const used = usedIn(buckets, window, at);
    if (used + amount <= limits[window]) continue;
    const retryAfter = secondsUntilFits(buckets, { window, at, limit: limits[window], amount });
    const candidate = { window, limit: limits[window], remaining: limits[window] > used ? limits[window] - used : 0n, retryAfter };
    if (!worst || (worst.retryAfter !== null && (retryAfter === null || retryAfter > worst.retryAfter))) worst = candidate;
  }
  return worst;
}

const SPOKEN: Record<LimitWindow, string> = { day: 'in the last 24 hours', month: 'in the last 30 days' };

/** 429 limit_exceeded, with the limit, window and what remains, and Retry-After when waiting helps. */
export function limitExceeded(asset: Asset, what: string, over: Exceeded): AppError {
  const limit = decimal(over.limit, asset);
  const remaining = decimal(over.remaining, asset);
  const head = `This ${what} would take what you sent in ${asset} ${SPOKEN[over.window]} over your limit of ${limit} ${asset}; ${remaining} ${asset} remains.`;
  const tail =
    over.retryAfter === null
      ? ` The amount alone is over the ${over.window === 'day' ? '24-hour' : '30-day'} limit, so it can never be sent at once: send less.`
      : ' Retry after the time in Retry-After, or send less.';
  return new AppError(
    'limit_exceeded',
    head + tail,
    { limit, window: over.window, remaining },
    over.retryAfter === null ? {} : { 'Retry-After': String(over.retryAfter) },
  );
}
