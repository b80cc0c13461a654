// One transfer as the console's detail page shows it (DESIGN §18): the transfer with both users'
// handles and its processor ids, the ledger entries of its operations (the credit, its settlement
// or return, refunds, disputes), the events told about it and the webhook attempts that carried
// them. Every list is bounded and read on an index.
import type { Db } from '../../db/database.js';
import type { Asset } from '../../money/assets.js';
import { creditOperationId } from '../../fiat/fiat-transfer.js';
import { transferOperationId } from '../../stablecoin/stablecoin-transfer.js';
import type { TransferRail } from './transfer-search-repository.js';

/** At most this many of each list (entries, events, attempts, refunds, disputes). */
export const MAX_DETAIL_ROWS = 100;

export interface TransferRecord {
  rail: TransferRail;
  id: string;
  currency: Asset;
  amountMinor: bigint;
  feeMinor: bigint;
  status: string;
  paymentMethod: string | null;
  failureCode: string | null;
  processorRef: string | null;
  instrumentRef: string | null;
  senderAccountId: number;
  recipientAccountId: number;
  senderHandle: string;
  recipientHandle: string;
  createdAt: Date;
  completedAt: Date | null;
}

const handles = (db: Db) =>
  db
    .selectFrom('accounts as s')
    .innerJoin('accounts as r', (join) => join.onTrue())
    .select(['s.id as sid', 's.handle as sender_handle', 'r.id as rid', 'r.handle as recipient_handle']);

export async function findTransferRecord(db: Db, id: string): Promise<TransferRecord | undefined> {
  const fiat = await db.selectFrom('fiat_transfers').selectAll().where('id', '=', id).executeTakeFirst();
  if (fiat) {
    const h = await handles(db)
      .where('s.id', '=', fiat.sender_account_id)
      .where('r.id', '=', fiat.recipient_account_id)
      .executeTakeFirstOrThrow();
    return {
      rail: 'fiat',
      id: fiat.id,
      currency: fiat.currency as Asset,
      amountMinor: fiat.amount,
      feeMinor: fiat.fee,
      status: fiat.status,
      paymentMethod: fiat.payment_method,
      failureCode: fiat.failure_code,
      processorRef: fiat.processor_ref,
      instrumentRef: fiat.instrument_ref,
      senderAccountId: fiat.sender_account_id,
      recipientAccountId: fiat.recipient_account_id,
      senderHandle: h.sender_handle,
      recipientHandle: h.recipient_handle,
      createdAt: fiat.created_at,
      completedAt: fiat.completed_at,
    };
  }
  const coin = await db.selectFrom('stablecoin_transfers').selectAll().where('id', '=', id).executeTakeFirst();
  if (!coin) return undefined;
  const h = await handles(db)
    .where('s.id', '=', coin.sender_account_id)
    .where('r.id', '=', coin.recipient_account_id)
    .executeTakeFirstOrThrow();
  return {
    rail: 'stablecoin',
    id: coin.id,
    currency: coin.currency,
    amountMinor: coin.amount,
    feeMinor: coin.fee,
    status: coin.status,
    paymentMethod: null,
    failureCode: null,
    processorRef: null,
    instrumentRef: null,
    senderAccountId: coin.sender_account_id,
    recipientAccountId: coin.recipient_account_id,
    senderHandle: h.sender_handle,
    recipientHandle: h.recipient_handle,
    createdAt: coin.created_at,
    completedAt: null,
  };
}

export interface TransferRefundRow {
  id: string;
  amountMinor: bigint;
  feeMinor: bigint;
  status: string;
  reason: string;
  origin: string;
  processorRef: string | null;
  createdAt: Date;
}

export async function refundsOfTransfer(db: Db, transferId: string): Promise<TransferRefundRow[]> {
  const rows = await db
    .selectFrom('refunds')
    .selectAll()
    .where('transfer_id', '=', transferId)
    .orderBy('created_at')
    .limit(MAX_DETAIL_ROWS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    amountMinor: r.amount,
    feeMinor: r.fee,
    status: r.status,
    reason: r.reason,
    origin: r.origin,
    processorRef: r.processor_ref,
    createdAt: r.created_at,
  }));
}

export interface TransferDisputeRow {
  id: string;
  processorRef: string;
  amountMinor: bigint;
  status: string;
  reason: string;
  openedAt: Date;
  closedAt: Date | null;
}

export async function disputesOfTransfer(db: Db, transfer: TransferRecord): Promise<TransferDisputeRow[]> {
  const rows = await db
    .selectFrom('disputes')
    .selectAll()
    .where('transfer_id', '=', transfer.id)
    .where('sender_account_id', '=', transfer.senderAccountId)
    .orderBy('opened_at')
    .limit(MAX_DETAIL_ROWS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    processorRef: r.processor_ref,
    amountMinor: r.amount,
    status: r.status,
    reason: r.reason,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
  }));
}

/** The ledger operations a transfer's money moved in: its own, its refunds' and its disputes'. */
export function operationIdsOf(transfer: TransferRecord, refundIds: readonly string[], disputeIds: readonly string[]): string[] {
  if (transfer.rail === 'stablecoin') return [transferOperationId(transfer.id)];
  const credit = creditOperationId(transfer.id);
  return [
    credit,
    `${credit}:settle`,
    `${credit}:return`,
    `${credit}:repay`,
    ...refundIds.flatMap((id) => [`refund:${id}`, `refund:${id}:undo`]),
    ...disputeIds.flatMap((id) => [`dispute:${id}`, `dispute:${id}:fee`, `dispute:${id}:won`]),
  ];
}

export interface LedgerEntryRow {
  id: bigint;
  operationId: string;
  kind: string;
  code: string;
  asset: Asset;
  amountMinor: bigint;
  debit: string;
  credit: string;
  createdAt: Date;
}

export async function ledgerEntriesOf(db: Db, operationIds: readonly string[]): Promise<LedgerEntryRow[]> {
  if (operationIds.length === 0) return [];
  const rows = await db
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as d', 'd.id', 't.debit_account_id')
    .innerJoin('ledger_accounts as c', 'c.id', 't.credit_account_id')
    .select(['t.id', 't.operation_id', 't.kind', 't.code', 't.asset', 't.amount', 't.created_at', 'd.code as debit', 'c.code as credit'])
    .where('t.operation_id', 'in', operationIds)
    .orderBy('t.id')
    .limit(MAX_DETAIL_ROWS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    operationId: r.operation_id,
    kind: r.kind,
    code: r.code,
    asset: r.asset as Asset,
    amountMinor: r.amount,
    debit: r.debit,
    credit: r.credit,
    createdAt: r.created_at,
  }));
}

export interface TransferEventRow {
  id: string;
  seq: bigint;
  accountId: number;
  type: string;
  createdAt: Date;
}

export async function eventsOfTransfer(db: Db, transfer: TransferRecord): Promise<TransferEventRow[]> {
  // Read on each user's (account_id, seq) index, from the transfer's creation on.
  const rows = await db
    .selectFrom('events')
    .select(['id', 'seq', 'account_id', 'type', 'created_at'])
    .where('account_id', 'in', [transfer.senderAccountId, transfer.recipientAccountId])
    .where('subject_id', '=', transfer.id)
    .where('created_at', '>=', transfer.createdAt)
    .orderBy('seq')
    .limit(MAX_DETAIL_ROWS)
    .execute();
  return rows.map((r) => ({ id: r.id, seq: r.seq, accountId: r.account_id, type: r.type, createdAt: r.created_at }));
}

export interface WebhookAttemptRow {
  eventSeq: bigint;
  endpointUrl: string;
  attempt: number;
  statusCode: number | null;
  succeeded: boolean;
  error: string | null;
  attemptedAt: Date;
}

export async function attemptsOfEvents(db: Db, seqs: readonly bigint[]): Promise<WebhookAttemptRow[]> {
  if (seqs.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select(['d.event_seq', 'w.url', 'a.attempt', 'a.status_code', 'a.succeeded', 'a.error', 'a.attempted_at'])
    .where('d.event_seq', 'in', seqs)
    .orderBy('a.id')
    .limit(MAX_DETAIL_ROWS)
    .execute();
  return rows.map((r) => ({
    eventSeq: r.event_seq,
    endpointUrl: r.url,
    attempt: r.attempt,
    statusCode: r.status_code,
    succeeded: r.succeeded,
    error: r.error,
    attemptedAt: r.attempted_at,
  }));
}
