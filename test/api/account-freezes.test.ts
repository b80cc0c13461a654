// The freeze core (DESIGN §17, decision 0035): freezeAccount / unfreezeAccount inside a caller's
// transaction write the freeze, one audit entry and one event each, and nothing when they change
// nothing; the checks stop what each scope stops; on PostgreSQL a freeze waits for a movement
// holding the account and a movement that starts after the freeze sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { SYSTEM_ACTOR, type Actor } from '../../src/compliance/audit/audit-log.js';
import { freezeAccount, unfreezeAccount } from '../../src/compliance/freezes/account-freezes.js';
import { assertNotFrozen, frozenAmong, refuseIfFrozen } from '../../src/compliance/freezes/freeze-checks.js';
import { readFreeze } from '../../src/compliance/freezes/freezes-repository.js';
import { AppError } from '../../src/platform/errors.js';
import { openTestDatabase } from '../helpers/test-database.js';
import { POSTGRES_ONLY, runsIf } from '../helpers/runs-if.js';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
const support: Actor = { operator: 'alice', requestId: 'req-1' };
const at = new Date('2026-11-26T14:00:00.000Z');

async function newAccount(label: string): Promise<number> {
  const row = await db
    .insertInto('accounts')
    .values({
      handle: `PA-${label}${Math.random().toString(36).slice(2, 8)}`.toUpperCase(),
      email: `${label}-${Math.random().toString(36).slice(2)}@example.com`,
      name: 'Freeze Test',
      password_hash: 'x',
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const auditOf = (accountId: number) =>
  db.selectFrom('audit_log').selectAll().where('target', '=', String(accountId)).orderBy('id').execute();
const eventsOf = (accountId: number) =>
  db.selectFrom('events').select(['type', 'subject_id', 'data']).where('account_id', '=', accountId).orderBy('seq').execute();

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
});
afterAll(async () => {
  await database?.close();
});

describe('freezeAccount and unfreezeAccount', () => {
  it('write the freeze, one audit entry and one event each; a repeat changes and records nothing', async () => {
    const id = await newAccount('a');
    expect(
      await db.transaction().execute((trx) => freezeAccount(trx, { accountId: id, scope: 'all', by: support, note: 'fraud report', at })),
    ).toEqual({
      changed: true,
    });
    const freeze = await readFreeze(db, id);
    expect(freeze).toMatchObject({ scope: 'all', by: 'alice', since: at });
    expect(freeze!.id).toMatch(/^frz_/);
    expect(
      await db.transaction().execute((trx) => freezeAccount(trx, { accountId: id, scope: 'all', by: support, note: 'again', at })),
    ).toEqual({ changed: false });

    const audit = await auditOf(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operator: 'alice', action: 'account.freeze', note: 'fraud report', request_id: 'req-1' });
    expect(audit[0]!.before).toEqual({ frozen: null });
    expect(audit[0]!.after).toEqual({ frozen: { scope: 'all', since: at.toISOString(), by: 'alice' } });
    const events = await eventsOf(id);
    expect(events).toEqual([
      { type: 'account.frozen', subject_id: freeze!.id, data: { id: freeze!.id, scope: 'all', since: at.toISOString() } },
    ]);

    const later = new Date(at.getTime() + 60_000);
    expect(
      await db.transaction().execute((trx) => unfreezeAccount(trx, { accountId: id, by: support, note: 'cleared', at: later })),
    ).toEqual({
      changed: true,
    });
    expect(await db.transaction().execute((trx) => unfreezeAccount(trx, { accountId: id, by: support, note: 'again', at: later }))).toEqual(
      {
        changed: false,
      },
    );
    expect(await readFreeze(db, id)).toBeNull();
    const after = await auditOf(id);
    expect(after.map((e) => e.action)).toEqual(['account.freeze', 'account.unfreeze']);
    expect(after[1]!.after).toEqual({ frozen: null });
    expect((await eventsOf(id)).at(-1)).toEqual({
      type: 'account.unfrozen',
      subject_id: freeze!.id,
      data: { id: freeze!.id, scope: 'all', since: at.toISOString(), until: later.toISOString() },
    });
  });

  it('a new scope is a new freeze, with its own event; freezing again after an unfreeze is another', async () => {
    const id = await newAccount('b');
    const run = (f: Parameters<typeof freezeAccount>[1] | null) =>
      db
        .transaction()
        .execute((trx) => (f ? freezeAccount(trx, f) : unfreezeAccount(trx, { accountId: id, by: SYSTEM_ACTOR, note: 'n', at })));
    await run({ accountId: id, scope: 'payouts', by: SYSTEM_ACTOR, note: 'fraud warning', at });
    await run({ accountId: id, scope: 'all', by: SYSTEM_ACTOR, note: 'listed', at });
    await run(null);
    await run({ accountId: id, scope: 'all', by: SYSTEM_ACTOR, note: 'listed again', at });
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['account.frozen', 'account.frozen', 'account.unfrozen', 'account.frozen']);
    expect(new Set(events.filter((e) => e.type === 'account.frozen').map((e) => e.subject_id)).size).toBe(3);
    const audit = await auditOf(id);
    expect(audit.map((e) => [e.operator, e.action])).toEqual([
      ['system', 'account.freeze'],
      ['system', 'account.freeze'],
      ['system', 'account.unfreeze'],
      ['system', 'account.freeze'],
    ]);
    expect(audit[1]!.before).toMatchObject({ frozen: { scope: 'payouts' } });
  });

  it('refuse an empty note and an unknown account, writing nothing', async () => {
    const id = await newAccount('c');
    expect(
      await codeOf(db.transaction().execute((trx) => freezeAccount(trx, { accountId: id, scope: 'all', by: support, note: ' ', at }))),
    ).toBe('invalid_request');
    expect(
      await codeOf(
        db.transaction().execute((trx) => freezeAccount(trx, { accountId: 2_000_000_000, scope: 'all', by: support, note: 'x', at })),
      ),
    ).toBe('not_found');
    expect(await readFreeze(db, id)).toBeNull();
    expect(await auditOf(id)).toEqual([]);
  });
});

describe('the checks', () => {
  it('payouts scope stops payouts only; all stops everything; the batch form names the frozen', async () => {
    const [free, payoutsOnly, all] = [await newAccount('d'), await newAccount('e'), await newAccount('f')];
    await db.transaction().execute(async (trx) => {
      await freezeAccount(trx, { accountId: payoutsOnly, scope: 'payouts', by: support, note: 'review', at });
      await freezeAccount(trx, { accountId: all, scope: 'all', by: support, note: 'review', at });
    });
    const check = (id: number, movement: 'payout' | 'other') =>
      codeOf(db.transaction().execute((trx) => assertNotFrozen(trx, id, movement)));
    expect([await check(free, 'payout'), await check(free, 'other')]).toEqual([null, null]);
    expect([await check(payoutsOnly, 'payout'), await check(payoutsOnly, 'other')]).toEqual(['account_frozen', null]);
    expect([await check(all, 'payout'), await check(all, 'other')]).toEqual(['account_frozen', 'account_frozen']);
    expect(await codeOf(refuseIfFrozen(db, all, 'other'))).toBe('account_frozen');
    expect(await codeOf(refuseIfFrozen(db, payoutsOnly, 'other'))).toBeNull();
    const among = (movement: 'payout' | 'other') =>
      db.transaction().execute((trx) => frozenAmong(trx, [all, free, payoutsOnly, all], movement));
    expect([...(await among('other'))]).toEqual([all]);
    expect([...(await among('payout'))].sort((a, b) => a - b)).toEqual([payoutsOnly, all].sort((a, b) => a - b));
  });
});

describe.runIf(runsIf(process.env.DATABASE_URL, POSTGRES_ONLY))('the lock on PostgreSQL', () => {
  it('a freeze waits for a movement holding the account; a movement after it sees the freeze', async () => {
    const id = await newAccount('g');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let checked!: () => void;
    const holding = new Promise<void>((resolve) => (checked = resolve));
    const movement = db.transaction().execute(async (trx) => {
      await assertNotFrozen(trx, id, 'other');
      checked();
      await held;
    });
    await holding;
    let frozenAt = 0;
    const freeze = db
      .transaction()
      .execute((trx) => freezeAccount(trx, { accountId: id, scope: 'all', by: support, note: 'race', at }))
      .then(() => (frozenAt = Date.now()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(frozenAt).toBe(0);
    const releasedAt = Date.now();
    release();
    await movement;
    await freeze;
    expect(frozenAt).toBeGreaterThanOrEqual(releasedAt);

    // The other way round: a movement waiting on an uncommitted freeze is refused once it commits.
    await db.transaction().execute((trx) => unfreezeAccount(trx, { accountId: id, by: support, note: 'n', at }));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let locked!: () => void;
    const lockedNow = new Promise<void>((resolve) => (locked = resolve));
    const slowFreeze = db.transaction().execute(async (trx) => {
      await freezeAccount(trx, { accountId: id, scope: 'all', by: support, note: 'race', at });
      locked();
      await committing;
    });
    await lockedNow;
    const waiting = codeOf(db.transaction().execute((trx) => assertNotFrozen(trx, id, 'other')));
    await sql`select pg_sleep(0.1)`.execute(db);
    commit();
    await slowFreeze;
    expect(await waiting).toBe('account_frozen');
  });
});
