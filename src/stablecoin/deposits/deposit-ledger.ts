// How a deposit enters the books: the platform's chain custody account (which mirrors the tokens
// peerpay holds on chain, and so goes negative as they arrive) pays the user's available balance.
// The deposit row and this credit commit in one transaction, and the row's unique (txHash,
// logIndex) makes the second of two recordings of one log do nothing: each log is credited once.
//
// A deposit from a sanctioned sender (DESIGN §17, decision 0037) is recorded `blocked`: the same
// custody debit (the tokens are on chain, in peerpay's custody, and the custody check counts them),
// credited to platform:blocked_deposits instead of the user, and the account frozen, all in one
// transaction. An operator's release moves it from there to the user's balance, once.
import type { Db } from '../../db/database.js';
import { applyOperation } from '../../ledger/ledger.js';
import { platformAccount, userAvailable } from '../../ledger/ledger-accounts.js';
import { assert } from '../../platform/errors.js';
import { insertDeposit, type NewDeposit } from './deposits-repository.js';
import type { Trx } from '../../db/transaction.js';
import { recordDepositEvent } from '../stablecoin-events.js';
import type { SanctionsControls } from '../../compliance/sanctions/sanctions-controls.js';

export function depositOperationId(depositId: string): string {
  return `deposit:${depositId}`;
}

/** Records and credits the deposit; false when its log was recorded before (nothing changes then). */
export async function recordDeposit(db: Db, deposit: NewDeposit): Promise<boolean> {
  // Before writing: a positive amount that fits the ledger's bigint columns.
  assert(deposit.amountMinor > 0n && deposit.amountMinor <= MAX_LEDGER_AMOUNT, 'a deposit amount is positive and fits the ledger');
  return db.transaction().execute(async (trx) => {
    if (!(await insertDeposit(trx, deposit))) return false;
    const applied = await applyOperation(trx, {
      operationId: depositOperationId(deposit.id),
      transfers: [
        {
          type: 'posted',
          debit: platformAccount('chain_custody', deposit.token),
          credit: userAvailable(deposit.accountId, deposit.token),
          amountMinor: deposit.amountMinor,
          code: 'chain_deposit',
        },
      ],
    });
    // After: the ledger moved exactly the deposit's amount.
    assert(applied.length === 1 && applied[0]!.amountMinor === deposit.amountMinor, 'the ledger credited exactly the deposit');
    await recordDepositEvent(trx, deposit);
    return true;
  });
}

/**
 * Records a deposit from a sanctioned sender as blocked, credited to nobody, and runs `freeze` (the
 * account's sanctions freeze) in the same transaction; false when its log was recorded before.
 */
export async function recordBlockedDeposit(db: Db, deposit: NewDeposit, freeze: (trx: Trx) => Promise<void>): Promise<boolean> {
  assert(deposit.amountMinor > 0n && deposit.amountMinor <= MAX_LEDGER_AMOUNT, 'a deposit amount is positive and fits the ledger');
  return db.transaction().execute(async (trx) => {
    if (!(await insertDeposit(trx, deposit, 'blocked'))) return false;
    const applied = await applyOperation(trx, {
      operationId: depositOperationId(deposit.id),
      transfers: [
        {
          type: 'posted',
          debit: platformAccount('chain_custody', deposit.token),
          credit: platformAccount('blocked_deposits', deposit.token),
          amountMinor: deposit.amountMinor,
          code: 'chain_deposit_blocked',
        },
      ],
    });
    assert(applied.length === 1 && applied[0]!.amountMinor === deposit.amountMinor, 'the ledger held exactly the deposit');
    await freeze(trx);
    return true;
  });
}

/**
 * Records the deposit as its sender's screening decided (`listed`: blocked and the account frozen;
 * otherwise credited); false when it was recorded before. Both deposit paths (the chain-log
 * watcher and Circle's inbound transactions) record through here.
 */
export async function recordScreenedDeposit(
  deps: { db: Db; sanctionsControls: SanctionsControls },
  deposit: NewDeposit,
  listed: boolean,
): Promise<boolean> {
  if (!listed) return recordDeposit(deps.db, deposit);
  return recordBlockedDeposit(deps.db, deposit, (trx) =>
    deps.sanctionsControls.freezeForSanctions(trx, {
      accountId: deposit.accountId,
      address: deposit.from,
      use: 'deposit',
      at: deposit.creditedAt,
    }),
  );
}

/** The ledger operation of a blocked deposit's release (the deposit's row, locked and marked, makes it happen once). */
export function depositReleaseOperationId(depositId: string): string {
  return `deposit_release:${depositId}`;
}

/** Moves a blocked deposit's amount from platform:blocked_deposits to the user's balance. */
export async function creditReleasedDeposit(
  trx: Trx,
  deposit: { id: string; accountId: number; token: NewDeposit['token']; amountMinor: bigint },
) {
  const applied = await applyOperation(trx, {
    operationId: depositReleaseOperationId(deposit.id),
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('blocked_deposits', deposit.token),
        credit: userAvailable(deposit.accountId, deposit.token),
        amountMinor: deposit.amountMinor,
        code: 'chain_deposit_release',
      },
    ],
  });
  assert(applied.length === 1 && applied[0]!.amountMinor === deposit.amountMinor, 'the ledger released exactly the deposit');
}

/** PostgreSQL bigint's maximum; a token amount above it cannot be booked. */
export const MAX_LEDGER_AMOUNT = 2n ** 63n - 1n;
