// The caller's stablecoin history, a page at a time, newest first (DESIGN §6: limit 1–100, default
// 20, opaque cursor). Only the caller's own movements are ever read: the account id comes from the
// API key, and a cursor is only a position.
import { decodeCursor, encodeCursor } from '../platform/cursor.js';
import { assert } from '../platform/errors.js';
import { listHistory, type HistoryRow } from './stablecoin-history-repository.js';
import type { Db } from '../db/database.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface HistoryPage {
  items: HistoryRow[];
  nextCursor: string | null;
}

export async function stablecoinHistory(
  deps: { db: Db },
  request: { accountId: number; limit: number; cursor: string | undefined },
): Promise<HistoryPage> {
  assert(Number.isInteger(request.limit) && request.limit >= 1 && request.limit <= MAX_PAGE_SIZE, 'page size within bounds');
  const after = request.cursor === undefined ? null : decodeCursor(request.cursor);
  // One row more than asked tells whether there is a next page.
  const rows = await listHistory(deps.db, { accountId: request.accountId, after, limit: request.limit + 1 });
  const items = rows.slice(0, request.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > request.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
}
