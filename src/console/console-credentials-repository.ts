// The console's columns of the operators table (migration 0028): reads and writes, nothing decided here.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Trx } from '../db/transaction.js';
import type { OperatorRole } from '../compliance/operators/operator-roles.js';

export interface SignInRow {
  id: string;
  name: string;
  disabledAt: Date | null;
  passwordHash: string | null;
  totpSecret: string | null;
  lockedUntil: Date | null;
}

export async function findForSignIn(db: Db, name: string): Promise<SignInRow | null> {
  const row = await db
    .selectFrom('operators')
    .select(['id', 'name', 'disabled_at', 'password_hash', 'totp_secret', 'locked_until'])
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    disabledAt: row.disabled_at,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    lockedUntil: row.locked_until,
  };
}

/** One more failure; the `maxFailures`th locks the operator until `lockUntil` and starts the count again. */
export async function recordFailure(db: Db, id: string, maxFailures: number, lockUntil: Date): Promise<void> {
  await db
    .updateTable('operators')
    .set({
      failed_sign_ins: sql`case when failed_sign_ins + 1 >= ${maxFailures} then 0 else failed_sign_ins + 1 end`,
      locked_until: sql`case when failed_sign_ins + 1 >= ${maxFailures} then ${lockUntil}::timestamptz else locked_until end`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A successful sign-in with the code of `step`: false when that step (or a later one) was already
 * used, so that a code is good once even when two sign-ins race with it.
 */
export async function claimStep(db: Db, id: string, step: number): Promise<boolean> {
  const claimed = await db
    .updateTable('operators')
    .set({ totp_last_step: BigInt(step), failed_sign_ins: 0 })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', BigInt(step))]))
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

export interface EnrolmentRow {
  id: string;
  name: string;
  role: OperatorRole;
  disabledAt: Date | null;
  enrolmentExpiresAt: Date | null;
  totpPending: string | null;
}

/** The operator an enrolment link belongs to (by the link's SHA-256), locked until the transaction ends. */
export async function lockByEnrolmentHash(trx: Trx, hash: string): Promise<EnrolmentRow | null> {
  const row = await trx
    .selectFrom('operators')
    .select(['id', 'name', 'role', 'disabled_at', 'enrolment_expires_at', 'totp_pending'])
    .where('enrolment_token_hash', '=', hash)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    disabledAt: row.disabled_at,
    enrolmentExpiresAt: row.enrolment_expires_at,
    totpPending: row.totp_pending,
  };
}

export async function setPendingSecret(trx: Trx, id: string, sealed: string): Promise<void> {
  await trx.updateTable('operators').set({ totp_pending: sealed }).where('id', '=', id).execute();
}

/** The enrolment confirmed: the password and the secret are the operator's, and the link is spent. */
export async function completeEnrolment(
  trx: Trx,
  id: string,
  done: { passwordHash: string; totpSecret: string; step: number; at: Date },
): Promise<void> {
  await trx
    .updateTable('operators')
    .set({
      password_hash: done.passwordHash,
      totp_secret: done.totpSecret,
      totp_pending: null,
      totp_last_step: BigInt(done.step),
      failed_sign_ins: 0,
      locked_until: null,
      enrolled_at: done.at,
      enrolment_token_hash: null,
      enrolment_expires_at: null,
    })
    .where('id', '=', id)
    .execute();
}
