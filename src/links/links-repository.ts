// SQL for links handed out to users (setup, payout onboarding and funding links: every feature's
// links share one table and these rules). Only the SHA-256 hash of a link's token is stored.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { Trx } from '../db/transaction.js';
import type { LinksTable } from '../db/schema.js';

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
  input: {
    tokenHash: string;
    accountId: number;
    purpose: string;
    payload: string | null;
    expiresAt: Date;
    createdAt: Date;
    /** A processor-hosted setup: the processor's session, and when to read it back if no webhook came. */
    processor?: { ref: string; reconcileAt: Date };
  },
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
      processor_ref: input.processor?.ref ?? null,
      reconcile_at: input.processor?.reconcileAt ?? null,
    })
    .execute();
}

const LINK_COLUMNS = ['id', 'account_id', 'purpose', 'payload', 'expires_at', 'used_at', 'outcome'] as const;

function toLinkRow(row: Pick<Selectable<LinksTable>, (typeof LINK_COLUMNS)[number]>): LinkRow {
  return {
    id: row.id,
    accountId: row.account_id,
    purpose: row.purpose,
    payload: row.payload,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    outcome: row.outcome,
  };
}

export async function findLinkByTokenHash(db: Db, tokenHash: string): Promise<LinkRow | undefined> {
  const row = await db.selectFrom('links').select(LINK_COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
  return row ? toLinkRow(row) : undefined;
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

/** An unused link of an account behind a processor's session (or connected account), newest first. */
export async function findOpenLinkByProcessorRef(
  trx: Trx,
  input: { processorRef: string; purposes: readonly string[] },
): Promise<LinkRow | undefined> {
  const row = await trx
    .selectFrom('links')
    .select(LINK_COLUMNS)
    .where('processor_ref', '=', input.processorRef)
    .where('purpose', 'in', [...input.purposes])
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .forUpdate()
    .executeTakeFirst();
  return row ? toLinkRow(row) : undefined;
}

/**
 * The processor says the setup behind a link is done: the link is used, whatever its expiry (the
 * user may finish a processor's page after peerpay's link ran out), and is no longer read back.
 */
export async function completeLinkByProcessor(trx: Trx, input: { id: number; now: Date }): Promise<boolean> {
  const result = await trx
    .updateTable('links')
    .set({ used_at: input.now, outcome: 'succeed', reconcile_at: null })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export interface LinkToReconcile {
  id: number;
  accountId: number;
  purpose: string;
  processorRef: string;
  createdAt: Date;
}

/**
 * Claims up to `limit` links whose processor session is due to be read back, pushing each one's
 * next reading to `nextAt` in the same statement (FOR UPDATE SKIP LOCKED), so that several
 * processes never read the same one in one round and a worker that dies simply leaves it due later.
 */
export async function claimLinksToReconcile(db: Db, input: { now: Date; nextAt: Date; limit: number }): Promise<LinkToReconcile[]> {
  const rows = await sql<{ id: number; account_id: number; purpose: string; processor_ref: string; created_at: Date }>`
    update links set reconcile_at = ${input.nextAt}
     where id in (
       select id from links
        where reconcile_at <= ${input.now} and used_at is null and processor_ref is not null
        order by reconcile_at
        limit ${input.limit}
        for update skip locked)
    returning id, account_id, purpose, processor_ref, created_at`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    purpose: r.purpose,
    processorRef: r.processor_ref,
    createdAt: r.created_at,
  }));
}

/** Nothing more to read back for this link (its session expired, or the time to wait is over). */
export async function stopReconciling(db: Db, id: number): Promise<void> {
  await db.updateTable('links').set({ reconcile_at: null }).where('id', '=', id).execute();
}
