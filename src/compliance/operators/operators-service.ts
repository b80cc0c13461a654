// Operator identities (DESIGN §17): who may use /admin/*, with which role. Each operator has an API
// token (shown once, kept as its SHA-256) and, when made, a one-time console enrolment link valid 24
// hours. OPERATOR_TOKEN stays as the bootstrap admin `env`, so that the first operator can be made
// on a fresh installation. Every write is audited in its own transaction.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordAudit, type Actor } from '../audit/audit-log.js';
import { ENV_OPERATOR, RESERVED_OPERATOR_NAMES, type Operator, type OperatorRole } from './operator-roles.js';
import { issueEnrolmentToken, issueOperatorToken, isWellFormedOperatorToken } from './operator-tokens.js';
import { presentNewOperator, presentOperator, type OperatorView } from './operator-views.js';
import {
  findByName,
  findEnabledByTokenHash,
  insertOperator,
  listOperators,
  lockById,
  markDisabled,
  resetEnrolment,
} from './operators-repository.js';

/** How long a console enrolment link works (DESIGN §17). */
export const ENROLMENT_VALID_MS = 24 * 60 * 60 * 1000;

export interface NewOperator {
  operator: ReturnType<typeof presentNewOperator>;
  /** `po_…`, shown this once. */
  token: string;
  enrolmentUrl: string;
}

export interface Operators {
  /** The operator a presented token belongs to; null for anything else (unknown, disabled, malformed). */
  authenticate(presented: string): Promise<Operator | null>;
  create(input: { name: string; role: OperatorRole; note: string }, by: Actor): Promise<NewOperator>;
  list(): Promise<OperatorView[]>;
  /** Idempotent: an operator already disabled is answered as it is, and nothing is recorded again. */
  disable(input: { id: string; note: string }, by: Actor): Promise<OperatorView>;
  /** The console's password and TOTP cleared and a new enrolment link issued (shown once); audited as `operator.reset_totp`. */
  resetTotp(input: { id: string; note: string }, by: Actor): Promise<{ operator: OperatorView; enrolmentUrl: string }>;
}

export interface OperatorsDeps {
  db: Db;
  clock: Clock;
  /** Where the enrolment links point (PUBLIC_URL). */
  publicUrl: string;
  /** OPERATOR_TOKEN, the bootstrap admin `env`; undefined when unset. */
  bootstrapToken: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function createOperators(deps: OperatorsDeps): Operators {
  const bootstrap = bootstrapMatcher(deps.bootstrapToken);
  return {
    async authenticate(presented) {
      const hashed = digest(presented);
      if (bootstrap(hashed) && presented !== '') return ENV_OPERATOR;
      // Only what could be an operator token costs a read: one indexed lookup by its hash.
      if (!isWellFormedOperatorToken(presented)) return null;
      return findEnabledByTokenHash(deps.db, hashed.toString('hex'));
    },
    create: (input, by) => createOperator(deps, input, by),
    list: async () => (await listOperators(deps.db)).map(presentOperator),
    resetTotp: (input, by) => resetTotp(deps, input, by),
    async disable(input, by) {
      return deps.db.transaction().execute(async (trx) => {
        const before = await lockById(trx, input.id);
        if (!before) throw new AppError('not_found', `No operator ${input.id}.`);
        if (before.disabledAt !== null) return presentOperator(before);
        // Names are unique whatever their case, so the name says whether it is the caller.
        if (before.name.toLowerCase() === by.operator.toLowerCase())
          throw new AppError('invalid_request', `Operator ${before.name} cannot disable itself; another admin can.`);
        const after = await markDisabled(trx, input.id, deps.clock.now());
        await recordAudit(trx, {
          by,
          action: 'operator.disable',
          target: after.id,
          before: presentOperator(before),
          after: presentOperator(after),
          note: input.note,
          at: after.disabledAt ?? deps.clock.now(),
        });
        return presentOperator(after);
      });
    },
  };
}

/**
 * Whether a presented token's digest is OPERATOR_TOKEN's, compared with timingSafeEqual: equal
 * lengths whatever was sent, and a time that does not depend on how much of it a guess got right.
 * Unset, the expected digest is random bytes no token hashes to, so the same work is done.
 */
function bootstrapMatcher(token: string | undefined): (hashed: Buffer) => boolean {
  const expected = token === undefined ? randomBytes(32) : digest(token);
  return (hashed) => timingSafeEqual(hashed, expected) && token !== undefined;
}

async function createOperator(
  deps: OperatorsDeps,
  input: { name: string; role: OperatorRole; note: string },
  by: Actor,
): Promise<NewOperator> {
  if (RESERVED_OPERATOR_NAMES.includes(input.name.toLowerCase()))
    throw new AppError(
      'already_exists',
      `The name ${input.name} is reserved: the audit log uses it for ${input.name.toLowerCase() === 'env' ? 'OPERATOR_TOKEN' : 'automatic controls'}.`,
    );
  const token = issueOperatorToken();
  const enrolment = issueEnrolmentToken();
  const now = deps.clock.now();
  try {
    const operator = await deps.db.transaction().execute(async (trx) => {
      if (await findByName(trx, input.name)) throw nameTaken(input.name);
      const row = await insertOperator(trx, {
        id: newId('op'),
        name: input.name,
        role: input.role,
        tokenHash: token.hash,
        createdAt: now,
        createdBy: by.operator,
        enrolmentTokenHash: enrolment.hash,
        enrolmentExpiresAt: new Date(now.getTime() + ENROLMENT_VALID_MS),
      });
      const after = presentOperator(row);
      await recordAudit(trx, { by, action: 'operator.create', target: row.id, before: null, after, note: input.note, at: now });
      return presentNewOperator(row);
    });
    return { operator, token: token.token, enrolmentUrl: `${deps.publicUrl}/console/enrol/${enrolment.token}` };
  } catch (error) {
    // Two operators of one name made at once: the unique index decides, the loser is told as above.
    if ((error as { code?: string }).code === '23505') throw nameTaken(input.name);
    throw error;
  }
}

async function resetTotp(
  deps: OperatorsDeps,
  input: { id: string; note: string },
  by: Actor,
): Promise<{ operator: OperatorView; enrolmentUrl: string }> {
  const enrolment = issueEnrolmentToken();
  const operator = await deps.db.transaction().execute(async (trx) => {
    const before = await lockById(trx, input.id);
    if (!before) throw new AppError('not_found', `No operator ${input.id}.`);
    if (before.disabledAt !== null)
      throw new AppError('invalid_request', `Operator ${before.name} is disabled; a disabled operator cannot enrol again.`);
    const now = deps.clock.now();
    const after = await resetEnrolment(trx, before.id, {
      tokenHash: enrolment.hash,
      expiresAt: new Date(now.getTime() + ENROLMENT_VALID_MS),
      at: now,
    });
    await recordAudit(trx, {
      by,
      action: 'operator.reset_totp',
      target: after.id,
      before: { ...presentOperator(before), enrolled: before.enrolledAt !== null },
      after: { ...presentOperator(after), enrolled: false },
      note: input.note,
      at: now,
    });
    return presentOperator(after);
  });
  return { operator, enrolmentUrl: `${deps.publicUrl}/console/enrol/${enrolment.token}` };
}

const nameTaken = (name: string) =>
  new AppError(
    'already_exists',
    `An operator named ${name} already exists (names are unique whatever their case, disabled operators' included).`,
  );
