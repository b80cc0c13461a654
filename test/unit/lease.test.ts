import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase } from '../helpers/test-database.js';
import { leaseDueRows } from '../../src/db/lease.js';
import type { Database } from '../../src/db/database.js';

let database: Database;
const now = new Date('2030-01-01T00:00:00Z');

beforeAll(async () => {
  database = await openTestDatabase();
  const account = await database.db
    .insertInto('accounts')
    .values({ handle: 'PA-LEASE001', email: 'lease@example.com', name: 'L', password_hash: 'x', phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < 30; i++) {
    await sql`insert into payouts (id, account_id, currency, amount, status, created_at)
              values (${`po_${String(i).padStart(3, '0')}`}, ${account.id}, 'USD', 100, ${i < 25 ? 'pending' : 'paid'}, ${new Date(now.getTime() - (30 - i) * 1000)})`.execute(
      database.db,
    );
  }
});
afterAll(async () => {
  await database?.close();
});

const lease = (limit: number, at = now) =>
  leaseDueRows(database.db, { table: 'payouts', due: sql`status = 'pending'`, orderBy: 'created_at', now: at, leaseMs: 60_000, limit });

it('leases due rows oldest first, at most `limit`, and never to two workers at once', async () => {
  const [a, b, c] = await Promise.all([lease(10), lease(10), lease(10)]);
  const all = [...a, ...b, ...c];
  expect(all).toHaveLength(25);
  expect(new Set(all).size).toBe(25);
  expect(Math.max(a.length, b.length, c.length)).toBeLessThanOrEqual(10);
  expect(all.every((id) => Number(id.slice(3)) < 25)).toBe(true);
  expect(await lease(10)).toEqual([]);
});

it('gives rows back once their lease has run out', async () => {
  const later = new Date(now.getTime() + 61_000);
  const again = await lease(5, later);
  expect([...again].sort()).toEqual(['po_000', 'po_001', 'po_002', 'po_003', 'po_004']);
});
