// Refusals of card risk before anything moves (DESIGN §16): a user who owes peerpay in a currency
// can neither send nor be paid out in it, and a user whose card payment is disputed cannot pay by
// card while the dispute is open.
import type { Trx } from '../../db/transaction.js';
import { formatMinor } from '../../money/amount.js';
import type { FiatCurrency } from '../../money/assets.js';
import { AppError } from '../../platform/errors.js';
import { userMoney } from './user-money.js';

/** The refusal of an account that owes `owedMinor` (> 0) in `currency`. */
export function accountInDebt(owedMinor: bigint, currency: FiatCurrency): AppError {
  const owed = formatMinor(owedMinor, currency);
  return new AppError(
    'account_in_debt',
    `This account owes ${owed} ${currency} after a refund or dispute; money received in ${currency} repays it first, and sending or payouts in ${currency} wait until it is repaid.`,
    { owed },
  );
}

/** The refusal of a card payment while one of the sender's card payments is disputed. */
export function cardDisputed(): AppError {
  return new AppError(
    'card_disputed',
    'A card payment of yours is disputed; paying by card is refused until the dispute is closed. Pay by bank debit (paymentMethod ach) instead.',
  );
}

/**
 * Whether the account may be paid out in `currency` now: not while it owes in it, nor while its
 * payouts are paused (an early fraud warning). The account freeze (DESIGN §17) is checked beside
 * it by the payout job, under the account's lock (compliance/freezes).
 */
export async function mayBePaidOut(trx: Trx, accountId: number, currency: FiatCurrency): Promise<boolean> {
  const { owedMinor } = await userMoney(trx, accountId, currency);
  if (owedMinor > 0n) return false;
  const paused = await trx
    .selectFrom('payout_pauses')
    .select('id')
    .where('account_id', '=', accountId)
    .where('lifted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return paused === undefined;
}
