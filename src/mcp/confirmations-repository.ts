// mcp_confirmations (migration 0012): the MCP server's two-step confirmations, by the hash of
// their id. A claim is one conditional UPDATE, so two processes can never both claim one.
import type { Db } from '../db/database.js';

export async function insertConfirmation(
  db: Db,
  row: { idHash: string; accountId: number; termsHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('mcp_confirmations')
    .values({
      id_hash: row.idHash,
      account_id: row.accountId,
      terms_hash: row.termsHash,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Marks it used when it is this account's, unused, unexpired at `now` and for these terms; true when it did. */
export async function claimConfirmation(
  db: Db,
  input: { idHash: string; accountId: number; termsHash: string; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('mcp_confirmations')
    .set({ used_at: input.now })
    .where('id_hash', '=', input.idHash)
    .where('account_id', '=', input.accountId)
    .where('terms_hash', '=', input.termsHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', input.now)
    .returning('id_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findConfirmation(
  db: Db,
  idHash: string,
  accountId: number,
): Promise<{ termsHash: string; expiresAt: Date; usedAt: Date | null } | null> {
  const row = await db
    .selectFrom('mcp_confirmations')
    .select(['terms_hash', 'expires_at', 'used_at'])
    .where('id_hash', '=', idHash)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? { termsHash: row.terms_hash, expiresAt: new Date(row.expires_at), usedAt: row.used_at } : null;
}

export async function releaseConfirmation(db: Db, idHash: string, accountId: number): Promise<void> {
  await db
    .updateTable('mcp_confirmations')
    .set({ used_at: null })
    .where('id_hash', '=', idHash)
    .where('account_id', '=', accountId)
    .execute();
}

/** Removes confirmations that expired before `before`, at most `limit` of them. */
export async function deleteExpiredConfirmations(db: Db, before: Date, limit: number): Promise<void> {
  await db
    .deleteFrom('mcp_confirmations')
    .where('id_hash', 'in', (qb) => qb.selectFrom('mcp_confirmations').select('id_hash').where('expires_at', '<', before).limit(limit))
    .execute();
}
