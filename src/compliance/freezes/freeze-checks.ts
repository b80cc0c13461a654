// The check every outgoing movement makes (DESIGN §17): a frozen account sends, withdraws and is
// paid out nothing; `scope: payouts` stops payouts only. The locking forms run inside the
// movement's transaction, before it writes, so that a freeze committing at the same time is
// ordered against it (freezes-repository.ts): either the movement commits before the freeze can,
// or it sees the freeze and is refused. The plain form answers early (a request, a quote), so that
// a frozen account is told so before anything else about the movement.
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import { AppError } from '../../platform/errors.js';
import { lockAccountsReadingFreezes, lockFreezesShared, lockSenderReadingFreeze, readFreeze, type Freeze } from './freezes-repository.js';

/** What leaves the account: a payout to its bank, or anything else (a transfer, a withdrawal, an x402 payment). */
export type Movement = 'payout' | 'other';

export function stops(freeze: Freeze | null, movement: Movement): boolean {
  if (freeze === null) return false;
  return freeze.scope === 'all' || movement === 'payout';
}

export function accountFrozen(movement: Movement): AppError {
  return new AppError(
    'account_frozen',
    movement === 'payout'
      ? 'This account is frozen for payouts by the service: received money stays in the balance. Contact support.'
      : 'This account is frozen by the service; it can sign in, read and receive, but sending, withdrawing and payouts are stopped. Contact support.',
  );
}

/**
 * Inside a movement's transaction: holds the account's row (key-share) until the commit and
 * refuses with 403 account_frozen when its freeze stops this movement.
 */
export async function assertNotFrozen(trx: Trx, accountId: number, movement: Movement): Promise<void> {
  const freezes = await lockFreezesShared(trx, [accountId]);
  if (stops(freezes.get(accountId) ?? null, movement)) throw accountFrozen(movement);
}

/**
 * assertNotFrozen for a movement that serialises its sender on the account's row (a fiat send):
 * takes that lock (FOR NO KEY UPDATE, which a freeze's FOR UPDATE waits for) and checks the freeze
 * in one statement.
 */
export async function lockSenderNotFrozen(trx: Trx, accountId: number, movement: Movement): Promise<void> {
  if (stops(await lockSenderReadingFreeze(trx, accountId), movement)) throw accountFrozen(movement);
}

/**
 * assertNotFrozen for a batch of movements (a stablecoin group commit): holds every account's row
 * until the commit, and answers which of them are frozen for `movement`, so that the batch refuses
 * those members alone.
 */
export async function frozenAmong(trx: Trx, accountIds: readonly number[], movement: Movement): Promise<Set<number>> {
  const freezes = await lockFreezesShared(trx, accountIds);
  const frozen = new Set<number>();
  for (const [id, freeze] of freezes) if (stops(freeze, movement)) frozen.add(id);
  return frozen;
}

/**
 * lockSenderNotFrozen for a batch of fiat sends: takes every named account's row FOR NO KEY UPDATE
 * in id order, and answers which of the `senders` are frozen for `movement`, so that the batch
 * refuses those members alone.
 */
export async function lockedFrozenSenders(
  trx: Trx,
  { senders, others = [] }: { senders: readonly number[]; others?: readonly number[] },
  movement: Movement,
): Promise<Set<number>> {
  const freezes = await lockAccountsReadingFreezes(trx, [...senders, ...others]);
  return new Set(senders.filter((id) => stops(freezes.get(id) ?? null, movement)));
}

/** Before anything else about a movement, or in a quote: the freeze as last committed, no lock. */
export async function refuseIfFrozen(db: Db | Trx, accountId: number, movement: Movement): Promise<void> {
  if (stops(await readFreeze(db, accountId), movement)) throw accountFrozen(movement);
}
