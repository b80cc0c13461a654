// SQL for links handed out to users. Only the SHA-256 hash of a link's token is stored.
import type { Db } from '../db/database.js';
import type { Trx } from '../ledger/ledger.js';

export interface LinkRow {
  id: number;
  accountId: number;
  purpose: string;
  payload: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  outcome: string | null;
}

export async function insertLink(
  db: Db,
  input: { tokenHash: string; accountId: number; purpose: string; payload: string | null; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('links')
    .values({
      token_hash: input.tokenHash,
      account_id: input.accountId,
      purpose: input.purpose,
      payload: input.payload,
      expires_at: input.expiresAt,
      created_at: input.createdAt,
    })
    .execute();
}

export async function findLinkByTokenHash(db: Db, tokenHash: string): Promise<LinkRow | undefined> {
  const row = await db
    .selectFrom('links')
    .select(['id', 'account_id', 'purpose', 'payload', 'expires_at', 'used_at', 'outcome'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row
    ? { id: row.id, accountId: row.account_id, purpose: row.purpose, payload: row.payload, expiresAt: row.expires_at, usedAt: row.used_at, outcome: row.outcome }
    : undefined;
}

/**
 * Marks the link used, once: true only for the one caller that found it unused and unexpired at
 * `now`. This conditional update is what makes a link single use under concurrent submissions.
 */
export async function useLink(trx: Trx, input: { id: number; outcome: string; now: Date }): Promise<boolean> {
  const result = await trx
    .updateTable('links')
    .set({ used_at: input.now, outcome: input.outcome })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', input.now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
