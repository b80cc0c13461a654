// GET /admin/accounts?q= (DESIGN §17): accounts by id, e-mail, handle, phone or deposit address.
// Each kind of key is read on an index of its own (migration 0024's byte-order indexes serve the
// prefixes), so a search never scans the table; the text decides which kinds it can be.
import type { Db } from '../../db/database.js';

/** At most this many accounts in one answer. */
export const MAX_SEARCH_RESULTS = 50;

export interface AccountSummaryRow {
  id: number;
  email: string;
  handle: string;
  name: string;
  createdAt: Date;
  frozenScope: 'all' | 'payouts' | null;
}

/** `text` as a LIKE prefix: its own % _ and \ matched as themselves. */
function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type Arm = 'id' | 'email' | 'handle' | 'phone' | 'depositAddress';

/** Which keys `q` can be a whole or a prefix of. */
function armsOf(q: string): Arm[] {
  const arms: Arm[] = [];
  if (/^[1-9][0-9]{0,8}$/.test(q)) arms.push('id');
  if (/^\+?[0-9]{4,15}$/.test(q)) arms.push('phone');
  if (/^0x[0-9a-f]{1,40}$/i.test(q)) arms.push('depositAddress');
  else if (!/^[0-9+]/.test(q)) arms.push('email', 'handle');
  return arms;
}

export async function searchAccounts(db: Db, q: string): Promise<AccountSummaryRow[]> {
  const found = new Map<number, AccountSummaryRow>();
  for (const arm of armsOf(q)) {
    if (found.size >= MAX_SEARCH_RESULTS) break;
    let query = db.selectFrom('accounts').select(['id', 'email', 'handle', 'name', 'created_at', 'frozen_scope']).limit(MAX_SEARCH_RESULTS);
    if (arm === 'id') query = query.where('id', '=', Number(q));
    else if (arm === 'phone') query = query.where('phone', '=', q.startsWith('+') ? q : `+${q}`);
    else if (arm === 'email') query = query.where('email', 'like', prefixPattern(q.toLowerCase())).orderBy('email');
    else if (arm === 'handle') query = query.where('handle', 'like', prefixPattern(q.toUpperCase())).orderBy('handle');
    else query = query.where((eb) => eb(eb.fn('lower', ['deposit_address']), 'like', prefixPattern(q.toLowerCase())));
    for (const row of await query.execute()) {
      found.set(row.id, {
        id: row.id,
        email: row.email,
        handle: row.handle,
        name: row.name,
        createdAt: row.created_at,
        frozenScope: row.frozen_scope,
      });
    }
  }
  return [...found.values()].slice(0, MAX_SEARCH_RESULTS);
}
