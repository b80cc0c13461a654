// The compliance refusals of DESIGN §17 said to the person at the terminal: a frozen account, a
// sending limit (which one, what is left, when more can be sent), a sanctioned address, screening
// that could not be reached. Each says that nothing was sent and what to do next.
import type { PeerpayError } from '@peerpay/client';
import { describeLimit, retryTime, sanctionedRefusedWithdrawal } from '@peerpay/mcp';

export interface ComplianceStep {
  text: string;
  /** The text replaces the service's detail: it says the same in the user's terms. */
  replacesDetail: true;
}

export function complianceRefusal(error: PeerpayError, currency: string | undefined, nowMs = Date.now()): ComplianceStep | undefined {
  const say = (text: string): ComplianceStep => ({ text, replacesDetail: true });
  switch (error.code) {
    case 'account_frozen':
      return say(
        'Your account is frozen: you can sign in, see your balances and receive money, but sending, withdrawing and payouts are stopped.\n' +
          'Nothing was sent. Contact peerpay support.',
      );
    case 'limit_exceeded': {
      const { remaining } = error.problem;
      const unit = currency ? ` ${currency}` : '';
      const spent = /^0(\.0+)?$/.test(remaining);
      const most = `Send at most ${remaining}${unit} now`;
      const instead =
        error.retryAfterSeconds === undefined
          ? spent
            ? 'Only peerpay support can raise the limit'
            : most
          : spent
            ? 'Try again after that time'
            : `${most}, or the rest after that time`;
      return say(
        `${describeLimit(error.problem, error.retryAfterSeconds, currency, nowMs)}\n` +
          `Nothing was sent. ${instead}; \`peerpay limits\` shows all your limits.`,
      );
    }
    case 'destination_sanctioned':
      return say(
        sanctionedRefusedWithdrawal(error)
          ? 'That address is on a sanctions list. Nothing was sent, and your account is frozen until peerpay support has reviewed it.'
          : 'That address is on a sanctions list: peerpay does not send to it. Nothing was sent.\n' +
              'Do not try again to this address: a withdrawal to a listed address freezes your account.',
      );
    case 'screening_unavailable': {
      const when = error.retryAfterSeconds === undefined ? 'in a minute' : `after ${retryTime(error.retryAfterSeconds, nowMs).at}`;
      return say(`peerpay could not check the address against sanctions lists just now. Nothing was sent; try again ${when}.`);
    }
    default:
      return undefined;
  }
}
