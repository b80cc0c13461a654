// When a link stops working, in the reader's terms: how long from now ("in 23 hours") and the exact
// moment in UTC, since a page cannot know the reader's time zone without a script (the pages' CSP
// allows none).
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * "in 23 hours (2026-11-27 10:55 UTC)". Rounded down, so the page never promises more time than is
 * left; minutes below two hours, hours below two days, then days.
 */
export function expiryText(expiresAt: Date, now: Date): string {
  return `${untilText(expiresAt.getTime() - now.getTime())} (${utcText(expiresAt)})`;
}

function untilText(leftMs: number): string {
  if (leftMs < MINUTE_MS) return 'in less than a minute';
  if (leftMs < 2 * HOUR_MS) return RELATIVE.format(Math.floor(leftMs / MINUTE_MS), 'minute');
  if (leftMs < 2 * DAY_MS) return RELATIVE.format(Math.floor(leftMs / HOUR_MS), 'hour');
  return RELATIVE.format(Math.floor(leftMs / DAY_MS), 'day');
}

/** 2026-11-27T10:55:31.000Z → "2026-11-27 10:55 UTC". */
function utcText(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
