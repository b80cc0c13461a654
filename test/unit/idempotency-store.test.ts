import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import pg from 'pg';
import { openTestDatabase, testDatabaseKind } from '../helpers/test-database.js';
import { runsIf } from '../helpers/runs-if.js';
import { createIdempotencyStore, deleteExpiredKeys, type IdempotencyStore } from '../../src/platform/idempotency-store.js';
import type { Database } from '../../src/db/database.js';

let database: Database & { url: string | undefined };
let store: IdempotencyStore;
let accountId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  store = createIdempotencyStore(database.db);
  const row = await database.db
    .insertInto('accounts')
    .values({ handle: 'PA-IDEMP001', email: 'idem@example.com', name: 'I', password_hash: 'x', phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  accountId = row.id;
});
afterAll(async () => {
  await database?.close();
});

const claim = (key: string, requestHash = 'h1', leaseMs = 60_000) => store.claim({ accountId, key, requestHash, leaseMs });

it('claims a new key once; a repeat while running is in progress; a different body is a mismatch', async () => {
  expect(await claim('k1')).toEqual({ kind: 'claimed' });
  expect(await claim('k1')).toEqual({ kind: 'in_progress' });
  expect(await claim('k1', 'other')).toEqual({ kind: 'mismatch' });
});

it('replays the stored answer once completed', async () => {
  expect(await claim('k2')).toEqual({ kind: 'claimed' });
  await store.complete({ accountId, key: 'k2', status: 201, body: '{"ok":true}' });
  expect(await claim('k2')).toEqual({ kind: 'replay', status: 201, body: '{"ok":true}' });
  expect(await claim('k2', 'other')).toEqual({ kind: 'mismatch' });
});

it('lets a retry run again after a released (5xx) attempt', async () => {
  expect(await claim('k3')).toEqual({ kind: 'claimed' });
  await store.release({ accountId, key: 'k3' });
  expect(await claim('k3')).toEqual({ kind: 'claimed' });
});

it('gives back a claim whose storing went unconfirmed (same body, still in progress), and nothing else', async () => {
  const uncertain = (key: string, requestHash = 'h1') => store.releaseUncertainClaim({ accountId, key, requestHash });
  expect(await claim('k6')).toEqual({ kind: 'claimed' });
  await uncertain('k6');
  expect(await claim('k6')).toEqual({ kind: 'claimed' });
  await uncertain('k6', 'other');
  expect(await claim('k6')).toEqual({ kind: 'in_progress' });
  await store.complete({ accountId, key: 'k6', status: 200, body: '{}' });
  await uncertain('k6');
  expect(await claim('k6')).toEqual({ kind: 'replay', status: 200, body: '{}' });
});

// The claim statement of a request whose connection was cut can still be running on its backend
// when the request gives the claim back; a second connection holding its transaction open plays it.
it.runIf(runsIf(testDatabaseKind() === 'postgres', 'a second connection: runs on PostgreSQL only (set DATABASE_URL)'))(
  'gives back a claim whose statement commits only after the give-back began, inserted or taken over',
  async () => {
    const lost = new pg.Client({ connectionString: database.url });
    await lost.connect();
    try {
      const insertClaim = `insert into idempotency_keys (account_id, key, request_hash, state) values ($1, 'k7', 'h1', 'in_progress')`;
      const takeOver = `update idempotency_keys set locked_at = now() where account_id = $1 and key = 'k8'`;
      expect(await claim('k8')).toEqual({ kind: 'claimed' });
      await sql`update idempotency_keys set locked_at = now() - interval '5 minutes' where key = 'k8'`.execute(database.db);
      for (const [key, statement] of [
        ['k7', insertClaim],
        ['k8', takeOver],
      ] as const) {
        await lost.query('begin');
        await lost.query(statement, [accountId]);
        let given = false;
        const giveBack = store.releaseUncertainClaim({ accountId, key, requestHash: 'h1' }).then(() => (given = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(given, 'the give-back waits for the statement it may be racing').toBe(false);
        await lost.query('commit');
        await giveBack;
        expect(await claim(key)).toEqual({ kind: 'claimed' });
      }
    } finally {
      await lost.end();
    }
  },
);

it('hands a claim whose lease is over to the next retry, once', async () => {
  expect(await claim('k4')).toEqual({ kind: 'claimed' });
  await sql`update idempotency_keys set locked_at = now() - interval '5 minutes' where key = 'k4'`.execute(database.db);
  const [a, b] = await Promise.all([claim('k4'), claim('k4')]);
  expect([a.kind, b.kind].sort()).toEqual(['claimed', 'in_progress']);
});

it('concurrent first claims of one key: exactly one wins', async () => {
  const results = await Promise.all(Array.from({ length: 10 }, () => claim('k5')));
  expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1);
  expect(results.filter((r) => r.kind === 'in_progress')).toHaveLength(9);
});

it('forgets keys older than the retention, in bounded batches', async () => {
  await claim('old1');
  await claim('old2');
  await sql`update idempotency_keys set created_at = now() - interval '3 days' where key in ('old1', 'old2')`.execute(database.db);
  expect(await deleteExpiredKeys(database.db, new Date(Date.now() - 24 * 3600 * 1000), 1)).toBe(1);
  expect(await deleteExpiredKeys(database.db, new Date(Date.now() - 24 * 3600 * 1000), 10)).toBe(1);
  expect(await claim('k1')).toEqual({ kind: 'in_progress' });
});

/** The same database through a Kysely that counts the statements sent (its own coalescers, too). */
function counted(): { store: IdempotencyStore; statements: () => number } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { store: createIdempotencyStore(database.db.withPlugin(plugin)), statements: () => n };
}

it('claims made in one turn go out as one statement, and their answers as one more', async () => {
  const { store: counting, statements } = counted();
  const keys = Array.from({ length: 20 }, (_, i) => `turn-${i}`);
  const claims = await Promise.all(keys.map((key) => counting.claim({ accountId, key, requestHash: 'h1', leaseMs: 60_000 })));
  expect(claims.every((c) => c.kind === 'claimed')).toBe(true);
  expect(statements()).toBe(1);
  await Promise.all(
    keys.map((key, i) =>
      i % 2 === 0 ? counting.complete({ accountId, key, status: 200, body: `{"n":${i}}` }) : counting.release({ accountId, key }),
    ),
  );
  expect(statements()).toBe(2);
  expect(await claim('turn-4')).toEqual({ kind: 'replay', status: 200, body: '{"n":4}' });
  expect(await claim('turn-5')).toEqual({ kind: 'claimed' });
});

it('claims of one key in one turn get the answers they would get one after the other', async () => {
  const { store: counting, statements } = counted();
  expect(await claim('seq-done')).toEqual({ kind: 'claimed' });
  await store.complete({ accountId, key: 'seq-done', status: 201, body: '{"done":true}' });
  expect(await claim('seq-expired')).toEqual({ kind: 'claimed' });
  await sql`update idempotency_keys set locked_at = now() - interval '5 minutes' where key = 'seq-expired'`.execute(database.db);
  const turn: [string, string][] = [
    ['seq-new', 'h1'],
    ['seq-done', 'h2'],
    ['seq-expired', 'h2'],
    ['seq-new', 'h1'],
    ['seq-new', 'h2'],
    ['seq-done', 'h1'],
    ['seq-expired', 'h1'],
    ['seq-expired', 'h1'],
    ['seq-new', 'h1'],
  ];
  const answers = await Promise.all(turn.map(([key, requestHash]) => counting.claim({ accountId, key, requestHash, leaseMs: 60_000 })));
  expect(statements()).toBe(1);
  expect(answers).toEqual([
    { kind: 'claimed' },
    { kind: 'mismatch' },
    { kind: 'mismatch' },
    { kind: 'in_progress' },
    { kind: 'mismatch' },
    { kind: 'replay', status: 201, body: '{"done":true}' },
    { kind: 'claimed' },
    { kind: 'in_progress' },
    { kind: 'in_progress' },
  ]);
  // The takeover renewed the lease: the next claim waits for it.
  expect(await claim('seq-expired')).toEqual({ kind: 'in_progress' });
});

it('a claim that fails does not fail the claims it shared a statement with', async () => {
  const { store: counting } = counted();
  const results = await Promise.allSettled([
    counting.claim({ accountId, key: 'alone-1', requestHash: 'h1', leaseMs: 60_000 }),
    // A text with a NUL character, which PostgreSQL refuses (accounts are not checked by the table: migration 0039).
    counting.claim({ accountId, key: 'alone-2\u0000', requestHash: 'h1', leaseMs: 60_000 }),
    counting.claim({ accountId, key: 'alone-3', requestHash: 'h1', leaseMs: 60_000 }),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(results[0]).toEqual({ status: 'fulfilled', value: { kind: 'claimed' } });
  expect(await claim('alone-3')).toEqual({ kind: 'in_progress' });
});

it('answers to one key in one turn apply one after the other', async () => {
  const { store: counting, statements } = counted();
  await Promise.all([claim('twice-a'), claim('twice-b')]);
  await Promise.all([
    counting.complete({ accountId, key: 'twice-a', status: 200, body: '{"a":1}' }),
    counting.release({ accountId, key: 'twice-b' }),
    counting.release({ accountId, key: 'twice-a' }), // after the completion: the answer stays
    counting.complete({ accountId, key: 'twice-b', status: 200, body: '{"b":1}' }), // after the release: nothing to complete
  ]);
  expect(statements()).toBe(2);
  expect(await claim('twice-a')).toEqual({ kind: 'replay', status: 200, body: '{"a":1}' });
  expect(await claim('twice-b')).toEqual({ kind: 'claimed' });
});
