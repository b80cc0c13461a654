// SQL for x402_payments (migration 0009). A claim is an insert that the unique (payer,
// authorization_nonce) lets through once; every later status change is conditional on the status
// it leaves, so that a request and the reconciliation job that both see an outcome record it once.
import type { Address, Hex } from 'viem';
import type { Db } from '../db/database.js';
import type { Trx } from '../db/transaction.js';

const MAX_BIGINT_COLUMN = 2n ** 63n - 1n;

export interface ChainClaim {
  id: string;
  endpoint: string;
  amountMinor: bigint;
  protocolVersion: 1 | 2;
  payer: Address;
  nonce: Hex;
  validBefore: bigint;
  payTo: Address;
  now: Date;
}

/** Claims an authorization for settlement; false when another request already claimed it. */
export async function claimAuthorization(db: Db, claim: ChainClaim): Promise<boolean> {
  const row = await db
    .insertInto('x402_payments')
    .values({
      id: claim.id,
      source: 'chain',
      endpoint: claim.endpoint,
      asset: 'USDC',
      amount: claim.amountMinor,
      protocol_version: claim.protocolVersion,
      payer: claim.payer.toLowerCase(),
      authorization_nonce: claim.nonce.toLowerCase(),
      // A uint256 in a bigint column: anything past 2^63 - 1 seconds means "never expires" all the same.
      valid_before: claim.validBefore > MAX_BIGINT_COLUMN ? MAX_BIGINT_COLUMN : claim.validBefore,
      pay_to: claim.payTo,
      status: 'settling',
      created_at: claim.now,
    })
    .onConflict((oc) => oc.columns(['payer', 'authorization_nonce']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function isAuthorizationKnown(db: Db, payer: Address, nonce: Hex): Promise<boolean> {
  const row = await db
    .selectFrom('x402_payments')
    .select('id')
    .where('payer', '=', payer.toLowerCase())
    .where('authorization_nonce', '=', nonce.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives a claim back when nothing was sent for it (the answer could not be computed). */
export async function releaseClaim(db: Db, id: string): Promise<void> {
  await db.deleteFrom('x402_payments').where('id', '=', id).where('status', '=', 'settling').where('tx_hash', 'is', null).execute();
}

export async function recordTransaction(db: Db, id: string, txHash: string): Promise<void> {
  await db
    .updateTable('x402_payments')
    .set({ tx_hash: txHash.toLowerCase() })
    .where('id', '=', id)
    .where('status', '=', 'settling')
    .execute();
}

/** settling → settled inside the caller's transaction; false when it was no longer settling. */
export async function markSettled(trx: Trx, input: { id: string; txHash: string | null; at: Date }): Promise<boolean> {
  const result = await trx
    .updateTable('x402_payments')
    .set((eb) => ({ status: 'settled', tx_hash: input.txHash?.toLowerCase() ?? eb.ref('tx_hash'), settled_at: input.at }))
    .where('id', '=', input.id)
    .where('status', '=', 'settling')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markFailed(db: Db, input: { id: string; reason: string }): Promise<boolean> {
  const result = await db
    .updateTable('x402_payments')
    .set({ status: 'failed', failure_reason: input.reason.slice(0, 200) })
    .where('id', '=', input.id)
    .where('status', '=', 'settling')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertBalancePayment(
  trx: Trx,
  payment: { id: string; endpoint: string; amountMinor: bigint; accountId: number; now: Date },
): Promise<void> {
  await trx
    .insertInto('x402_payments')
    .values({
      id: payment.id,
      source: 'balance',
      endpoint: payment.endpoint,
      asset: 'USDC',
      amount: payment.amountMinor,
      account_id: payment.accountId,
      status: 'settled',
      created_at: payment.now,
      settled_at: payment.now,
    })
    .execute();
}

export interface SettlingPayment {
  id: string;
  amountMinor: bigint;
  payer: Address;
  nonce: Hex;
  validBefore: bigint;
  txHash: string | null;
  /** Where the authorization pays (the hot wallet, or an external PAY_TO). */
  payTo: Address;
}

/** Chain payments still settling that were claimed before `olderThan`, oldest first, at most `limit`. */
export async function settlingPayments(db: Db, input: { olderThan: Date; limit: number }): Promise<SettlingPayment[]> {
  const rows = await db
    .selectFrom('x402_payments')
    .select(['id', 'amount', 'payer', 'authorization_nonce', 'valid_before', 'tx_hash', 'pay_to'])
    .where('status', '=', 'settling')
    .where('source', '=', 'chain')
    .where('created_at', '<', input.olderThan)
    .orderBy('created_at')
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    amountMinor: r.amount,
    payer: r.payer as Address,
    nonce: r.authorization_nonce as Hex,
    validBefore: r.valid_before ?? 0n,
    txHash: r.tx_hash,
    payTo: r.pay_to as Address,
  }));
}
