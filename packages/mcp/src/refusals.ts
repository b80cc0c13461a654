// The compliance refusals of DESIGN §17 in the user's terms: a frozen account, a sending limit, a
// sanctioned destination, screening that could not be reached. The service's detail says what
// happened; these say it for a person (the limit, its window, what remains and when more can be
// sent) and what to do next. Shared by the MCP tools and the peerpay command.
import type { PeerpayError } from '@peerpay/client';

/** What the refused call was about, where the problem itself does not say it. */
export interface RefusalContext {
  /** The currency or token of the movement (a limit_exceeded problem names the amounts only). */
  currency?: string | undefined;
}

const WINDOW_WORDS: Record<string, string> = { day: '24 hours', month: '30 days' };

/** A limit's window as people say it: the rolling 24 hours or 30 days. */
export function windowWords(window: string): string {
  return WINDOW_WORDS[window] ?? window;
}

/** When a Retry-After ends: the time in UTC to the minute, and roughly how long from `nowMs`. */
export function retryTime(seconds: number, nowMs: number): { at: string; inWords: string } {
  const at = new Date(nowMs + seconds * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const minutes = Math.ceil(seconds / 60);
  let inWords: string;
  if (seconds < 90) inWords = `${seconds} seconds`;
  else if (minutes < 90) inWords = `${minutes} minutes`;
  else if (minutes < 48 * 60) inWords = `${Math.round(minutes / 60)} hours`;
  else inWords = `${Math.round(minutes / (24 * 60))} days`;
  return { at, inWords };
}

/**
 * One or two sentences on a limit_exceeded refusal: the limit and its window, what of it remains,
 * and when more can be sent (from Retry-After). Amounts are the service's decimal strings, as is.
 */
export function describeLimit(
  problem: { limit: string; window: string; remaining: string },
  retryAfterSeconds: number | undefined,
  currency: string | undefined,
  nowMs: number,
): string {
  const unit = currency ? ` ${currency}` : '';
  const left = /^0(\.0+)?$/.test(problem.remaining) ? 'nothing of it is left' : `${problem.remaining}${unit} of it is left`;
  const sentence = `The limit on sending${currency ? ` ${currency}` : ''} is ${problem.limit}${unit} in any ${windowWords(problem.window)}, and ${left}.`;
  // No Retry-After: waiting makes no room (the amount alone is over the limit).
  if (retryAfterSeconds === undefined) return `${sentence} The amount alone is more than that, so waiting will not help.`;
  const when = retryTime(retryAfterSeconds, nowMs);
  return `${sentence} More can be sent from ${when.at} (in about ${when.inWords}).`;
}

/**
 * Whether a destination_sanctioned refusal froze the account: a withdrawal (or a saved default
 * address) to a listed address does; asking for a quote for one does not (it only refuses).
 */
export function sanctionedRefusedWithdrawal(error: PeerpayError): boolean {
  return FREEZING_OPERATIONS.has(error.operationId);
}

/** The calls whose destination_sanctioned refusal also froze the account; a quote only refuses. */
const FREEZING_OPERATIONS = new Set(['createWithdrawal', 'setWithdrawalAddress']);

/** What an agent should do about a compliance refusal, in the user's terms; undefined for other codes. */
export function complianceNextStep(error: PeerpayError, context: RefusalContext = {}, nowMs = Date.now()): string | undefined {
  switch (error.code) {
    case 'account_frozen':
      return (
        'The user’s peerpay account is frozen: it can still sign in, see its balances and receive money, but sending, withdrawing and payouts are stopped. ' +
        'Nothing was moved. Tell the user to contact peerpay support; do not retry, and do not try another way to move the money.'
      );
    case 'limit_exceeded': {
      const most = `send at most ${error.problem.remaining}${context.currency ? ` ${context.currency}` : ''} now`;
      const spent = /^0(\.0+)?$/.test(error.problem.remaining);
      const offer =
        error.retryAfterSeconds === undefined
          ? spent
            ? 'say that only peerpay support can raise the limit'
            : `offer to ${most}`
          : spent
            ? 'offer to try again after that time'
            : `offer to ${most}, or the rest after that time`;
      return (
        `${describeLimit(error.problem, error.retryAfterSeconds, context.currency, nowMs)} Nothing was moved. ` +
        `Tell the user, and ${offer} (get_limits shows every limit).`
      );
    }
    case 'destination_sanctioned':
      return sanctionedRefusedWithdrawal(error)
        ? 'That address is on a sanctions list: nothing was sent, and peerpay has frozen the user’s account for review. ' +
            'Tell the user; the account stays frozen until peerpay support has reviewed it. Do not retry.'
        : 'That address is on a sanctions list: peerpay does not send to it, and nothing was sent. ' +
            'Tell the user; do not retry to this address (a withdrawal to a listed address freezes the account).';
    case 'screening_unavailable': {
      const when = error.retryAfterSeconds === undefined ? 'shortly' : `after ${retryTime(error.retryAfterSeconds, nowMs).at}`;
      return `peerpay could not check the address against sanctions lists just now, so nothing was sent. Make the same call again ${when}; the user need not do anything.`;
    }
    default:
      return undefined;
  }
}
