// Migrations 0034 and 0039 (decisions 0048, 0072): events, stablecoin transfers, limit volume and
// Idempotency-Key records name their accounts without foreign keys, because the database refuses
// to delete an account whoever asks; every invariant check (tests, benchmark) looks for a row
// naming an account that does not exist.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('account references without foreign keys', () => {
  it('the database refuses DELETE and TRUNCATE of accounts, so a reference once written stays true', async () => {
    const { db } = server.deps;
    const user = await registerUser(server);
    const before = await db.selectFrom('accounts').select('id').execute();
    await expect(sql`delete from accounts where handle = ${user.handle}`.execute(db)).rejects.toThrow(/never deleted/);
    await expect(sql`truncate accounts cascade`.execute(db)).rejects.toThrow(/never deleted/);
    expect(await db.selectFrom('accounts').select('id').execute()).toHaveLength(before.length);
  });

  it('transfers leave no row naming a missing account, and the invariant check finds one that does', async () => {
    const { db } = server.deps;
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    await fund(server, alice, 50_000_000n);
    for (let i = 0; i < 3; i++)
      expect((await agentTransfer(server, alice, { to: bob.handle, amount: 1, currency: 'USDC' })).status).toBe(200);
    const keyed = await agentTransfer(server, alice, { to: bob.handle, amount: 1, currency: 'USDC' }, { 'idempotency-key': 'refs-1' });
    expect(keyed.status).toBe(200);
    expect(await db.selectFrom('idempotency_keys').select('key').where('key', '=', 'refs-1').execute()).toHaveLength(1);
    expect(await checkLedgerInvariants(db)).toEqual([]);

    const missing = 2_000_000_000;
    /** A row naming the missing account, written on purpose: the check reports it, and nothing once it is gone. */
    async function reportedWhileThere(table: 'limit_volume' | 'idempotency_keys', write: () => Promise<unknown>): Promise<void> {
      await write();
      try {
        expect(await checkLedgerInvariants(db)).toEqual([
          { invariant: 'references_an_account', detail: `a row of ${table} names account ${missing}, which does not exist` },
        ]);
      } finally {
        await db.deleteFrom(table).where('account_id', '=', missing).execute();
      }
      expect(await checkLedgerInvariants(db)).toEqual([]);
    }
    await reportedWhileThere('limit_volume', () =>
      db
        .insertInto('limit_volume')
        .values({ account_id: missing, currency: 'USDC', span: 'day', starts_at: new Date(0), volume: 1n })
        .execute(),
    );
    await reportedWhileThere('idempotency_keys', () =>
      db
        .insertInto('idempotency_keys')
        .values({ account_id: missing, key: 'orphan', request_hash: 'h', state: 'completed', response_status: 200, response_body: '{}' })
        .execute(),
    );
  });
});
