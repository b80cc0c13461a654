// SQL for deposits: the deposit addresses the watcher reads logs for (a page of accounts at a
// time), which addresses are peerpay's own, and the record of a credited deposit.
import { getAddress, type Address, type Hash } from 'viem';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { Token } from '../../money/assets.js';
import type { TokenTransferLog } from '../../adapters/chain/chain-adapter.js';
import { newId } from '../../platform/ids.js';

export interface DepositAccount {
  accountId: number;
  address: Address;
}

/** Accounts with a deposit address and an id above `after`, in id order, at most `limit`. */
export async function depositAccountsPage(db: Db, input: { after: number; limit: number }): Promise<DepositAccount[]> {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'deposit_address'])
    .where('id', '>', input.after)
    .where('deposit_address', 'is not', null)
    .orderBy('id')
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({ accountId: r.id, address: getAddress(r.deposit_address!) }));
}

/** Which of `addresses` (EIP-55) are users' deposit addresses. */
export async function depositAddressesAmong(db: Db, addresses: readonly Address[]): Promise<Set<Address>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .selectFrom('accounts')
    .select('deposit_address')
    .where('deposit_address', 'in', [...addresses])
    .execute();
  return new Set(rows.map((r) => getAddress(r.deposit_address!)));
}

/** The earliest time any account was created; null when there is none. */
export async function firstAccountCreatedAt(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.min('created_at').as('first'))
    .executeTakeFirst();
  const first = row?.first as Date | string | null | undefined;
  return first === null || first === undefined ? null : new Date(first);
}

export interface NewDeposit {
  id: string;
  accountId: number;
  token: Token;
  amountMinor: bigint;
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hash;
  from: Address;
  to: Address;
  creditedAt: Date;
  /** With WALLET_PROVIDER=circle: Circle's id of the inbound transaction (unique, like the log). */
  circleTransactionId?: string;
}

/** The deposit one Transfer log makes: (txHash, logIndex) names it for ever, whoever reported it. */
export function depositFromLog(
  log: TokenTransferLog,
  to: { accountId: number; token: Token; creditedAt: Date; circleTransactionId?: string },
): NewDeposit {
  return {
    id: newId('dep'),
    accountId: to.accountId,
    token: to.token,
    amountMinor: log.value,
    txHash: log.txHash,
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    from: getAddress(log.from),
    to: getAddress(log.to),
    creditedAt: to.creditedAt,
    ...(to.circleTransactionId === undefined ? {} : { circleTransactionId: to.circleTransactionId }),
  };
}

/**
 * Inserts the deposit unless its (txHash, logIndex), or its Circle transaction id, is recorded
 * already; true when this call inserted it.
 */
export async function insertDeposit(trx: Trx, deposit: NewDeposit, status: 'credited' | 'blocked' = 'credited'): Promise<boolean> {
  const inserted = await trx
    .insertInto('chain_deposits')
    .values({
      id: deposit.id,
      account_id: deposit.accountId,
      token: deposit.token,
      amount: deposit.amountMinor,
      tx_hash: deposit.txHash.toLowerCase(),
      log_index: deposit.logIndex,
      block_number: deposit.blockNumber,
      block_hash: deposit.blockHash.toLowerCase(),
      from_address: deposit.from,
      to_address: deposit.to,
      credited_at: deposit.creditedAt,
      status,
      circle_transaction_id: deposit.circleTransactionId ?? null,
    })
    // Whichever unique key the row repeats (the log, or the Circle transaction id).
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface BlockedDeposit {
  id: string;
  accountId: number;
  token: Token;
  amountMinor: bigint;
  from: Address;
  txHash: Hash;
  status: 'credited' | 'blocked' | 'released';
  recordedAt: Date;
  releasedAt: Date | null;
}

/** The deposit, its row locked until the transaction ends (a release decides on it); undefined when there is none. */
export async function lockDeposit(trx: Trx, id: string): Promise<BlockedDeposit | undefined> {
  const row = await trx
    .selectFrom('chain_deposits')
    .select(['id', 'account_id', 'token', 'amount', 'from_address', 'tx_hash', 'status', 'credited_at', 'released_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    token: row.token,
    amountMinor: BigInt(row.amount),
    from: getAddress(row.from_address),
    txHash: row.tx_hash as Hash,
    status: row.status,
    recordedAt: new Date(row.credited_at),
    releasedAt: row.released_at === null ? null : new Date(row.released_at),
  };
}

/** Marks a blocked deposit released; true when this call changed it. */
export async function markReleased(trx: Trx, input: { id: string; at: Date }): Promise<boolean> {
  const result = await trx
    .updateTable('chain_deposits')
    .set({ status: 'released', released_at: input.at })
    .where('id', '=', input.id)
    .where('status', '=', 'blocked')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
