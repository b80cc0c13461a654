// The coalesced look-ups of authentication and recipients (src/accounts/account-lookups.ts): the
// calls of one turn are answered by one statement, each with its own row, and nothing is cached,
// so a key revoked before a call is refused by it, whichever set of look-ups (process) reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../helpers/test-database.js';
import { statementCounter } from '../helpers/statement-counter.js';
import { issueApiKey } from '../../src/accounts/api-keys.js';
import { createAccountLookups, type AccountLookups } from '../../src/accounts/account-lookups.js';
import type { Database, Db } from '../../src/db/database.js';

let database: Database;
let counted: Db;
const counter = statementCounter();
let lookups: AccountLookups;
let serial = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  counted = counter.db(database.db);
  lookups = createAccountLookups(counted);
});
afterAll(async () => {
  await database?.close();
});

async function createAccount(options: { phone?: string; balances?: Record<string, bigint> } = {}) {
  serial += 1;
  const handle = `PA-LOOK${String(serial).padStart(4, '0')}`;
  const email = `lookup-${serial}@example.com`;
  const { id } = await database.db
    .insertInto('accounts')
    .values({ handle, email, name: 'L', password_hash: 'x', phone: options.phone ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [asset, balance] of Object.entries(options.balances ?? {}))
    await database.db
      .insertInto('ledger_accounts')
      .values({ code: `user:${id}:available:${asset}`, owner_account_id: id, kind: 'available', asset, allow_negative: false, balance })
      .execute();
  const key = issueApiKey();
  const keyRow = await database.db
    .insertInto('api_keys')
    .values({ account_id: id, key_hash: key.hash, last4: key.last4 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, handle, email, phone: options.phone ?? null, keyHash: key.hash, keyId: keyRow.id };
}

const NOT_FROZEN = { frozen_scope: null, frozen_id: null, frozen_at: null, frozen_by: null };

async function revoke(keyId: number): Promise<void> {
  await database.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).execute();
}

/** The statements that `work` ran through the counted database. */
function statementsOf(work: () => Promise<unknown>): Promise<number> {
  return counter.during(work);
}

describe('API keys', () => {
  it('answers the keys of one turn with one statement, each request its own key (or none)', async () => {
    const alice = await createAccount();
    const bob = await createAccount();
    let answers: unknown[] = [];
    const used = await statementsOf(async () => {
      answers = await Promise.all([
        lookups.activeKey(alice.keyHash),
        lookups.activeKey(bob.keyHash),
        lookups.activeKey(alice.keyHash),
        lookups.activeKey(issueApiKey().hash),
      ]);
    });
    expect(used).toBe(1);
    const expectedAlice = { keyId: alice.keyId, keyHash: alice.keyHash, accountId: alice.id, handle: alice.handle, freeze: NOT_FROZEN };
    expect(answers).toEqual([
      expectedAlice,
      { keyId: bob.keyId, keyHash: bob.keyHash, accountId: bob.id, handle: bob.handle, freeze: NOT_FROZEN },
      expectedAlice,
      undefined,
    ]);
  });

  it('reads each key’s balances with it, in one statement, as bigint minor units', async () => {
    const rich = await createAccount({ balances: { USDC: 5_000_000n, EURC: 12n } });
    const empty = await createAccount();
    let answers: Awaited<ReturnType<AccountLookups['activeKeyWithBalances']>>[] = [];
    const used = await statementsOf(async () => {
      answers = await Promise.all([
        lookups.activeKeyWithBalances(rich.keyHash),
        lookups.activeKeyWithBalances(empty.keyHash),
        lookups.activeKeyWithBalances(rich.keyHash),
      ]);
    });
    expect(used).toBe(1);
    const richBalances = [
      { asset: 'EURC', availableMinor: 12n, pendingMinor: 0n },
      { asset: 'USDC', availableMinor: 5_000_000n, pendingMinor: 0n },
    ];
    expect(answers[0]).toEqual({
      keyId: rich.keyId,
      keyHash: rich.keyHash,
      accountId: rich.id,
      handle: rich.handle,
      balances: richBalances,
    });
    expect(answers[1]).toEqual({ keyId: empty.keyId, keyHash: empty.keyHash, accountId: empty.id, handle: empty.handle, balances: [] });
    // Two requests with the same key never share an object one of them might change.
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[2]).not.toBe(answers[0]);
    expect(answers[2]!.balances[0]).not.toBe(answers[0]!.balances[0]);
  });

  it('refuses a revoked key in a turn that also answers good keys, with and without balances', async () => {
    const revoked = await createAccount({ balances: { USDC: 1n } });
    const good = await createAccount({ balances: { USDC: 2n } });
    await revoke(revoked.keyId);
    const [a, b, c, d] = await Promise.all([
      lookups.activeKey(revoked.keyHash),
      lookups.activeKey(good.keyHash),
      lookups.activeKeyWithBalances(revoked.keyHash),
      lookups.activeKeyWithBalances(good.keyHash),
    ]);
    expect(a).toBeUndefined();
    expect(b?.accountId).toBe(good.id);
    expect(c).toBeUndefined();
    expect(d?.balances).toEqual([{ asset: 'USDC', availableMinor: 2n, pendingMinor: 0n }]);
  });

  it('caches nothing: the first call after a revocation, by any set of look-ups, refuses the key', async () => {
    const carol = await createAccount();
    // Another set of look-ups on the same database stands for another process.
    const elsewhere = createAccountLookups(database.db);
    expect(await lookups.activeKey(carol.keyHash)).toBeDefined();
    expect(await elsewhere.activeKeyWithBalances(carol.keyHash)).toBeDefined();
    await revoke(carol.keyId);
    expect(await lookups.activeKey(carol.keyHash)).toBeUndefined();
    expect(await elsewhere.activeKeyWithBalances(carol.keyHash)).toBeUndefined();
  });
});

describe('accounts by handle, e-mail or phone', () => {
  it('answers the handles, e-mails and phones of one turn with one statement', async () => {
    const byHandle = await createAccount();
    const byEmail = await createAccount();
    const byPhone = await createAccount({ phone: `+1415555${String(serial + 1).padStart(4, '0')}` });
    let answers: unknown[] = [];
    const used = await statementsOf(async () => {
      answers = await Promise.all([
        lookups.account({ handle: byHandle.handle }),
        lookups.account({ email: byEmail.email }),
        lookups.account({ phone: byPhone.phone! }),
        lookups.account({ handle: 'PA-NOBODY00' }),
        lookups.account({ email: 'nobody@example.com' }),
        lookups.account({ phone: '+14155550000' }),
        lookups.account({ email: byHandle.email }),
      ]);
    });
    expect(used).toBe(1);
    const ids = answers.map((a) => (a as { id: number } | undefined)?.id);
    expect(ids).toEqual([byHandle.id, byEmail.id, byPhone.id, undefined, undefined, undefined, byHandle.id]);
    expect(answers[2]).toEqual({
      id: byPhone.id,
      handle: byPhone.handle,
      email: byPhone.email,
      name: 'L',
      phone: byPhone.phone,
      website: null,
      discoverable: expect.any(Boolean),
      walletId: null,
      depositAddress: null,
    });
  });

  it('never answers one kind of query with an account that only matches another', async () => {
    const someone = await createAccount({ phone: '+447700900123' });
    // A handle-shaped e-mail or phone names nobody: each value is compared with its own column.
    const [asEmail, asPhone] = await Promise.all([
      lookups.account({ email: someone.handle }),
      lookups.account({ phone: someone.email }),
      lookups.account({ handle: someone.handle }),
    ]);
    expect(asEmail).toBeUndefined();
    expect(asPhone).toBeUndefined();
  });
});

describe('keys and accounts together', () => {
  it('answers the keys and the accounts of one turn with one statement, each call its own row', async () => {
    const caller = await createAccount();
    const recipient = await createAccount();
    let answers: unknown[] = [];
    const used = await statementsOf(async () => {
      answers = await Promise.all([
        lookups.activeKey(caller.keyHash),
        lookups.account({ handle: recipient.handle }),
        // The caller's own account asked for by handle is an account row, not its key's row.
        lookups.account({ handle: caller.handle }),
        lookups.activeKey(issueApiKey().hash),
        lookups.account({ handle: recipient.handle }),
      ]);
    });
    expect(used).toBe(1);
    expect(answers[0]).toEqual({
      keyId: caller.keyId,
      keyHash: caller.keyHash,
      accountId: caller.id,
      handle: caller.handle,
      freeze: NOT_FROZEN,
    });
    expect(answers[1]).toMatchObject({ id: recipient.id, handle: recipient.handle, email: recipient.email, name: 'L' });
    expect(answers[1]).not.toHaveProperty('keyHash');
    expect(answers[1]).not.toHaveProperty('frozenScope');
    expect(answers[2]).toMatchObject({ id: caller.id, email: caller.email });
    expect(answers[3]).toBeUndefined();
    // Two requests naming the same recipient never share an object one of them might change.
    expect(answers[4]).toEqual(answers[1]);
    expect(answers[4]).not.toBe(answers[1]);
  });
});

describe("the key's account's freeze", () => {
  it('comes with the key, in the same statement, as committed before the call', async () => {
    const frozen = await createAccount();
    const other = await createAccount();
    const since = new Date('2026-03-01T10:00:00.000Z');
    await database.db
      .updateTable('accounts')
      .set({ frozen_scope: 'payouts', frozen_id: 'frz_lookup1', frozen_at: since, frozen_by: 'op@example.com' })
      .where('id', '=', frozen.id)
      .execute();
    let answers: unknown[] = [];
    const used = await statementsOf(async () => {
      answers = await Promise.all([
        lookups.activeKey(frozen.keyHash),
        lookups.activeKey(other.keyHash),
        lookups.account({ handle: frozen.handle }),
      ]);
    });
    expect(used).toBe(1);
    expect(answers[0]).toMatchObject({
      accountId: frozen.id,
      freeze: { frozen_scope: 'payouts', frozen_id: 'frz_lookup1', frozen_at: since, frozen_by: 'op@example.com' },
    });
    expect(answers[1]).toMatchObject({ accountId: other.id, freeze: NOT_FROZEN });
    // An account row (a recipient) carries no freeze: only the key's own account's is read.
    expect(answers[2]).toMatchObject({ id: frozen.id });
    expect(answers[2]).not.toHaveProperty('freeze');
    // Unfrozen and read again: the next call sees the commit (nothing cached).
    await database.db
      .updateTable('accounts')
      .set({ frozen_scope: null, frozen_id: null, frozen_at: null, frozen_by: null })
      .where('id', '=', frozen.id)
      .execute();
    expect(await lookups.activeKey(frozen.keyHash)).toMatchObject({ freeze: NOT_FROZEN });
  });
});
