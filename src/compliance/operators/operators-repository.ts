// The operators table (migration 0023): reads and writes, nothing decided here.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { OperatorsTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import type { Operator, OperatorRole } from './operator-roles.js';

export interface OperatorRow {
  id: string;
  name: string;
  role: OperatorRole;
  createdAt: Date;
  createdBy: string;
  disabledAt: Date | null;
  enrolmentExpiresAt: Date | null;
  enrolledAt: Date | null;
}

/** Operators are people: a listing of them is one page, this long at most. */
export const MAX_OPERATORS_LISTED = 1000;

const COLUMNS = ['id', 'name', 'role', 'created_at', 'created_by', 'disabled_at', 'enrolment_expires_at', 'enrolled_at'] as const;

type Selected = Pick<Selectable<OperatorsTable>, (typeof COLUMNS)[number]>;

function rowOf(r: Selected): OperatorRow {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    createdAt: r.created_at,
    createdBy: r.created_by,
    disabledAt: r.disabled_at,
    enrolmentExpiresAt: r.enrolment_expires_at,
    enrolledAt: r.enrolled_at,
  };
}

/**
 * The operator an API token belongs to, enabled ones only: one read of the partial index that holds
 * only enabled operators' tokens, so that a disabled operator's token is looked up as an unknown one is.
 */
export async function findEnabledByTokenHash(db: Db, tokenHash: string): Promise<Operator | null> {
  const row = await db
    .selectFrom('operators')
    .select(['name', 'role'])
    .where('token_hash', '=', tokenHash)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

export async function findByName(trx: Trx | Db, name: string): Promise<OperatorRow | null> {
  const row = await trx
    .selectFrom('operators')
    .select(COLUMNS)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row ? rowOf(row) : null;
}

/** The operator with this id, locked against a concurrent change until the transaction ends. */
export async function lockById(trx: Trx, id: string): Promise<OperatorRow | null> {
  const row = await trx.selectFrom('operators').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? rowOf(row) : null;
}

export interface NewOperatorRow {
  id: string;
  name: string;
  role: OperatorRole;
  tokenHash: string;
  createdAt: Date;
  createdBy: string;
  enrolmentTokenHash: string;
  enrolmentExpiresAt: Date;
}

export async function insertOperator(trx: Trx, row: NewOperatorRow): Promise<OperatorRow> {
  const inserted = await trx
    .insertInto('operators')
    .values({
      id: row.id,
      name: row.name,
      role: row.role,
      token_hash: row.tokenHash,
      created_at: row.createdAt,
      created_by: row.createdBy,
      enrolment_token_hash: row.enrolmentTokenHash,
      enrolment_expires_at: row.enrolmentExpiresAt,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return rowOf(inserted);
}

export async function markDisabled(trx: Trx, id: string, at: Date): Promise<OperatorRow> {
  const updated = await trx
    .updateTable('operators')
    .set({ disabled_at: at })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return rowOf(updated);
}

/** Every operator, oldest first (MAX_OPERATORS_LISTED at most). */
export async function listOperators(db: Db): Promise<OperatorRow[]> {
  const rows = await db.selectFrom('operators').select(COLUMNS).orderBy('created_at').orderBy('id').limit(MAX_OPERATORS_LISTED).execute();
  return rows.map(rowOf);
}

/**
 * The operator's console credentials cleared (migration 0028) and a new enrolment link set: the
 * operator enrols again. Its console sessions end with it.
 */
export async function resetEnrolment(trx: Trx, id: string, link: { tokenHash: string; expiresAt: Date; at: Date }): Promise<OperatorRow> {
  const updated = await trx
    .updateTable('operators')
    .set({
      password_hash: null,
      totp_secret: null,
      totp_pending: null,
      totp_last_step: null,
      failed_sign_ins: 0,
      locked_until: null,
      enrolled_at: null,
      enrolment_token_hash: link.tokenHash,
      enrolment_expires_at: link.expiresAt,
    })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('console_sessions')
    .set({ ended_at: link.at })
    .where('operator_id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
  return rowOf(updated);
}
