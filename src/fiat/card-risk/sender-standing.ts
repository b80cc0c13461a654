// Refusals of card risk before anything moves (DESIGN §16): a user who owes peerpay in a currency
// can neither send nor be paid out in it, and a user whose card payment is disputed cannot pay by
// card while the dispute is open.
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import { formatMinor } from '../../money/amount.js';
import type { FiatCurrency } from '../../money/assets.js';
import { AppError } from '../../platform/errors.js';
import { userMoney } from './user-money.js';

/** 403 account_in_debt (with `owed`) while the account owes anything in `currency`. */
export async function refuseWhileInDebt(db: Db | Trx, accountId: number, currency: FiatCurrency): Promise<void> {
  const { owedMinor } = await userMoney(db, accountId, currency);
  if (owedMinor === 0n) return;
  const owed = formatMinor(owedMinor, currency);
  throw new AppError(
    'account_in_debt',
    `This account owes ${owed} ${currency} after a refund or dispute; money received in ${currency} repays it first, and sending or payouts in ${currency} wait until it is repaid.`,
    { owed },
  );
}

/** 402 card_disputed while a card payment the account made is disputed and the dispute is open. */
export async function refuseCardWhileDisputed(db: Db | Trx, accountId: number): Promise<void> {
  const open = await db
    .selectFrom('disputes')
    .select('id')
    .where('sender_account_id', '=', accountId)
    .where('status', '=', 'open')
    .limit(1)
    .executeTakeFirst();
  if (!open) return;
  throw new AppError(
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
