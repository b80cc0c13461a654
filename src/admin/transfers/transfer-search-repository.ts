// The console's transfer search (DESIGN §18): fiat and stablecoin transfers by id, by one account
// (the handle or e-mail an operator typed, as sender or recipient), by date range, rail and status,
// newest first, a bounded page at a time. With an account, each rail is read on its sender and
// recipient indexes; without one, the date range bounds what is read.
import type { Db } from '../../db/database.js';
import type { Asset } from '../../money/assets.js';

export type TransferRail = 'fiat' | 'stablecoin';

export interface TransferFilter {
  /** One transfer's id. */
  id?: string;
  /** Transfers this account sent or received. */
  accountId?: number;
  /** From this instant (inclusive) … */
  from?: Date;
  /** … to this one (exclusive). */
  to?: Date;
  rail?: TransferRail;
  status?: string;
  /** Rows skipped (page × page size), bounded by the caller. */
  offset: number;
  limit: number;
}

export interface TransferSearchRow {
  rail: TransferRail;
  id: string;
  currency: Asset;
  amountMinor: bigint;
  feeMinor: bigint;
  status: string;
  /** Fiat: `instant` (card) or `ach`; null for stablecoin transfers. */
  paymentMethod: string | null;
  senderHandle: string;
  recipientHandle: string;
  createdAt: Date;
}

export const FIAT_STATUSES = ['processing', 'pending', 'completed', 'failed'] as const;
export const STABLECOIN_STATUSES = ['complete'] as const;

async function fiatRows(db: Db, f: TransferFilter, take: number): Promise<TransferSearchRow[]> {
  if (f.status !== undefined && !(FIAT_STATUSES as readonly string[]).includes(f.status)) return [];
  let query = db
    .selectFrom('fiat_transfers as t')
    .innerJoin('accounts as s', 's.id', 't.sender_account_id')
    .innerJoin('accounts as r', 'r.id', 't.recipient_account_id')
    .select(['t.id', 't.currency', 't.amount', 't.fee', 't.status', 't.payment_method', 't.created_at'])
    .select(['s.handle as sender_handle', 'r.handle as recipient_handle']);
  if (f.id !== undefined) query = query.where('t.id', '=', f.id);
  const accountId = f.accountId;
  if (accountId !== undefined)
    query = query.where((eb) => eb.or([eb('t.sender_account_id', '=', accountId), eb('t.recipient_account_id', '=', accountId)]));
  if (f.from) query = query.where('t.created_at', '>=', f.from);
  if (f.to) query = query.where('t.created_at', '<', f.to);
  if (f.status !== undefined) query = query.where('t.status', '=', f.status as (typeof FIAT_STATUSES)[number]);
  const rows = await query.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(take).execute();
  return rows.map((r) => ({
    rail: 'fiat',
    id: r.id,
    currency: r.currency as Asset,
    amountMinor: r.amount,
    feeMinor: r.fee,
    status: r.status,
    paymentMethod: r.payment_method,
    senderHandle: r.sender_handle,
    recipientHandle: r.recipient_handle,
    createdAt: r.created_at,
  }));
}

async function stablecoinRows(db: Db, f: TransferFilter, take: number): Promise<TransferSearchRow[]> {
  if (f.status !== undefined && !(STABLECOIN_STATUSES as readonly string[]).includes(f.status)) return [];
  let query = db
    .selectFrom('stablecoin_transfers as t')
    .innerJoin('accounts as s', 's.id', 't.sender_account_id')
    .innerJoin('accounts as r', 'r.id', 't.recipient_account_id')
    .select(['t.id', 't.currency', 't.amount', 't.fee', 't.status', 't.created_at'])
    .select(['s.handle as sender_handle', 'r.handle as recipient_handle']);
  if (f.id !== undefined) query = query.where('t.id', '=', f.id);
  const accountId = f.accountId;
  if (accountId !== undefined)
    query = query.where((eb) => eb.or([eb('t.sender_account_id', '=', accountId), eb('t.recipient_account_id', '=', accountId)]));
  if (f.from) query = query.where('t.created_at', '>=', f.from);
  if (f.to) query = query.where('t.created_at', '<', f.to);
  const rows = await query.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(take).execute();
  return rows.map((r) => ({
    rail: 'stablecoin',
    id: r.id,
    currency: r.currency,
    amountMinor: r.amount,
    feeMinor: r.fee,
    status: r.status,
    paymentMethod: null,
    senderHandle: r.sender_handle,
    recipientHandle: r.recipient_handle,
    createdAt: r.created_at,
  }));
}

/** One page of transfers, newest first, both rails merged; `more` when another page follows. */
export async function searchTransfers(db: Db, f: TransferFilter): Promise<{ rows: TransferSearchRow[]; more: boolean }> {
  // Each rail's first offset + limit + 1 rows hold the merged page and tell whether another follows.
  const take = f.offset + f.limit + 1;
  const [fiat, stablecoin] = await Promise.all([
    f.rail === 'stablecoin' ? [] : fiatRows(db, f, take),
    f.rail === 'fiat' ? [] : stablecoinRows(db, f, take),
  ]);
  const merged = [...fiat, ...stablecoin].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  return { rows: merged.slice(f.offset, f.offset + f.limit), more: merged.length > f.offset + f.limit };
}

/** The account a handle or an e-mail names, exactly (both are stored normalised). */
export async function accountIdByHandleOrEmail(db: Db, text: string): Promise<number | undefined> {
  const query = db.selectFrom('accounts').select('id');
  const row = text.includes('@')
    ? await query.where('email', '=', text.toLowerCase()).executeTakeFirst()
    : await query.where('handle', '=', text.toUpperCase()).executeTakeFirst();
  return row?.id;
}
