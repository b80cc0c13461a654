import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase } from '../helpers/test-database.js';
import { claimKey, completeKey, deleteExpiredKeys, releaseKey, releaseUncertainClaim } from '../../src/platform/idempotency-store.js';
import type { Database } from '../../src/db/database.js';

let database: Database;
let accountId: number;
beforeAll(async () => {
  database = await openTestDatabase();
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

const claim = (key: string, requestHash = 'h1', leaseMs = 60_000) => claimKey(database.db, { accountId, key, requestHash, leaseMs });

it('claims a new key once; a repeat while running is in progress; a different body is a mismatch', async () => {
  expect(await claim('k1')).toEqual({ kind: 'claimed' });
  expect(await claim('k1')).toEqual({ kind: 'in_progress' });
  expect(await claim('k1', 'other')).toEqual({ kind: 'mismatch' });
});

it('replays the stored answer once completed', async () => {
  expect(await claim('k2')).toEqual({ kind: 'claimed' });
  await completeKey(database.db, { accountId, key: 'k2', status: 201, body: '{"ok":true}' });
  expect(await claim('k2')).toEqual({ kind: 'replay', status: 201, body: '{"ok":true}' });
  expect(await claim('k2', 'other')).toEqual({ kind: 'mismatch' });
});

it('lets a retry run again after a released (5xx) attempt', async () => {
  expect(await claim('k3')).toEqual({ kind: 'claimed' });
  await releaseKey(database.db, { accountId, key: 'k3' });
  expect(await claim('k3')).toEqual({ kind: 'claimed' });
});

it('gives back a claim whose storing went unconfirmed (same body, still in progress), and nothing else', async () => {
  const uncertain = (key: string, requestHash = 'h1') => releaseUncertainClaim(database.db, { accountId, key, requestHash });
  expect(await claim('k6')).toEqual({ kind: 'claimed' });
  await uncertain('k6');
  expect(await claim('k6')).toEqual({ kind: 'claimed' });
  await uncertain('k6', 'other');
  expect(await claim('k6')).toEqual({ kind: 'in_progress' });
  await completeKey(database.db, { accountId, key: 'k6', status: 200, body: '{}' });
  await uncertain('k6');
  expect(await claim('k6')).toEqual({ kind: 'replay', status: 200, body: '{}' });
});

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
