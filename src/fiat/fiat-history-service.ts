// The caller's fiat history, a page at a time, newest first: transfers (GET /transfers) and the
// entries they and payouts made (GET /transactions). Only the caller's own rows are ever read.
import { assert } from '../platform/errors.js';
import { decodeCursor, encodeCursor } from '../platform/cursor.js';
import { listEntries, listTransfers, type EntryRow, type TransferHistoryRow } from './fiat-history-repository.js';
import type { Db } from '../db/database.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface PageRequest {
  accountId: number;
  limit: number;
  cursor: string | undefined;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

async function page<T extends { id: string; createdAt: Date }>(
  request: PageRequest,
  read: (input: { accountId: number; after: ReturnType<typeof decodeCursor> | null; limit: number }) => Promise<T[]>,
): Promise<Page<T>> {
  assert(Number.isInteger(request.limit) && request.limit >= 1 && request.limit <= MAX_PAGE_SIZE, 'page size within bounds');
  const after = request.cursor === undefined ? null : decodeCursor(request.cursor);
  // One row more than asked tells whether there is a next page.
  const rows = await read({ accountId: request.accountId, after, limit: request.limit + 1 });
  const items = rows.slice(0, request.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > request.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
}

export function transferHistory(deps: { db: Db }, request: PageRequest): Promise<Page<TransferHistoryRow>> {
  return page(request, (input) => listTransfers(deps.db, input));
}

export function transactionHistory(deps: { db: Db }, request: PageRequest): Promise<Page<EntryRow>> {
  return page(request, (input) => listEntries(deps.db, input));
}
