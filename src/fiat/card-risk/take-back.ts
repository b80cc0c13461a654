// The two movements of card risk (DESIGN §16), each under the user's lock, in the caller's
// transaction:
// - takeBack: money a user must give back (a refund, a dispute) comes from `held`, then
//   `available`, and the rest becomes `owed`, booked against the user's receivable, so that no
//   user account goes below zero;
// - receive: money a user receives repays `owed` first; the rest is credited `available`, or
//   `held` (with its hold row) for card money.
import { applyOperation, type TransferInput } from '../../ledger/ledger.js';
import type { Trx } from '../../db/transaction.js';
import { receivableOf, userAvailable, userHeld, type LedgerAccountKey } from '../../ledger/ledger-accounts.js';
import type { FiatCurrency } from '../../money/assets.js';
import { assert } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { insertHold, shrinkHolds } from './holds-repository.js';
import { lockUser, userMoney } from './user-money.js';

export interface TakeBackInput {
  accountId: number;
  currency: FiatCurrency;
  amountMinor: bigint;
  /** The transfer whose money is taken back: its hold is shrunk first. */
  transferId: string | null;
  /** Where the money goes (the processor's clearing account: it left peerpay's processor balance). */
  to: LedgerAccountKey;
  operationId: string;
  code: string;
  /** Other transfers of the same operation (the platform's fee given back). */
  alongside?: readonly TransferInput[];
}

export interface TakeBackSplit {
  fromHeldMinor: bigint;
  fromAvailableMinor: bigint;
  owedMinor: bigint;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

export async function takeBack(trx: Trx, input: TakeBackInput): Promise<TakeBackSplit> {
  assert(input.amountMinor >= 0n, 'a take-back is not negative');
  await lockUser(trx, input.accountId);
  const money = await userMoney(trx, input.accountId, input.currency);
  const fromHeldMinor = min(money.heldMinor, input.amountMinor);
  const fromAvailableMinor = min(money.availableMinor, input.amountMinor - fromHeldMinor);
  const owedMinor = input.amountMinor - fromHeldMinor - fromAvailableMinor;
  const moves: TransferInput[] = [
    ...movement(userHeld(input.accountId, input.currency), input.to, fromHeldMinor, input.code),
    ...movement(userAvailable(input.accountId, input.currency), input.to, fromAvailableMinor, input.code),
    ...movement(receivableOf(input.accountId, input.currency), input.to, owedMinor, `${input.code}_owed`),
    ...(input.alongside ?? []),
  ];
  if (moves.length > 0) await applyOperation(trx, { operationId: input.operationId, transfers: moves });
  await shrinkHolds(trx, {
    accountId: input.accountId,
    currency: input.currency,
    transferId: input.transferId,
    amountMinor: fromHeldMinor,
  });
  return { fromHeldMinor, fromAvailableMinor, owedMinor };
}

export interface ReceiveInput {
  accountId: number;
  currency: FiatCurrency;
  amountMinor: bigint;
  from: LedgerAccountKey;
  /** Card money is held until then (its hold row made here); absent or past: credited available. */
  hold?: { transferId: string; releaseAt: Date; now: Date } | undefined;
  operationId: string;
  code: string;
  alongside?: readonly TransferInput[];
}

export interface Received {
  repaidMinor: bigint;
  creditedMinor: bigint;
  holdId: string | null;
}

export async function receive(trx: Trx, input: ReceiveInput): Promise<Received> {
  assert(input.amountMinor >= 0n, 'a receipt is not negative');
  await lockUser(trx, input.accountId);
  const { owedMinor } = await userMoney(trx, input.accountId, input.currency);
  const repaidMinor = min(owedMinor, input.amountMinor);
  const creditedMinor = input.amountMinor - repaidMinor;
  const held = input.hold !== undefined && input.hold.releaseAt > input.hold.now && creditedMinor > 0n;
  const destination = held ? userHeld(input.accountId, input.currency) : userAvailable(input.accountId, input.currency);
  const moves: TransferInput[] = [
    ...movement(input.from, receivableOf(input.accountId, input.currency), repaidMinor, 'debt_repaid'),
    ...movement(input.from, destination, creditedMinor, input.code),
    ...(input.alongside ?? []),
  ];
  if (moves.length > 0) await applyOperation(trx, { operationId: input.operationId, transfers: moves });
  let holdId: string | null = null;
  if (held) {
    holdId = newId('hold');
    await insertHold(
      trx,
      {
        id: holdId,
        accountId: input.accountId,
        currency: input.currency,
        transferId: input.hold!.transferId,
        amountMinor: creditedMinor,
        remainingMinor: creditedMinor,
        releaseAt: input.hold!.releaseAt,
      },
      input.hold!.now,
    );
  }
  return { repaidMinor, creditedMinor, holdId };
}

function movement(debit: LedgerAccountKey, credit: LedgerAccountKey, amountMinor: bigint, code: string): TransferInput[] {
  return amountMinor > 0n ? [{ type: 'posted', debit, credit, amountMinor, code }] : [];
}

/**
 * Money that reached `available` without passing through receive (a bank debit's pending credit,
 * posted when it settles) repays what the user owes: up to `amountMinor` of it moves to the
 * receivable. Returns what was repaid.
 */
export async function repayFromAvailable(
  trx: Trx,
  input: { accountId: number; currency: FiatCurrency; amountMinor: bigint; operationId: string },
): Promise<bigint> {
  await lockUser(trx, input.accountId);
  const money = await userMoney(trx, input.accountId, input.currency);
  const repaid = min(min(money.owedMinor, money.availableMinor), input.amountMinor);
  if (repaid > 0n) {
    await applyOperation(trx, {
      operationId: input.operationId,
      transfers: movement(
        userAvailable(input.accountId, input.currency),
        receivableOf(input.accountId, input.currency),
        repaid,
        'debt_repaid',
      ),
    });
  }
  return repaid;
}
