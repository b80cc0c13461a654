// A PostgreSQL connection that dies while a request holds it (a failover, an operator's
// pg_terminate_backend, a network reset) fails that request's next query with an error the HTTP
// layer reads as "database unavailable", never an unhandled 'error' event that ends the process;
// and the pool hands out a working connection afterwards. A database host that accepts connections
// and never answers costs seconds, not a hang.
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { isDatabaseUnavailable } from '../../src/db/database-unavailable.js';
import { openTestDatabase, testDatabaseKind } from '../helpers/test-database.js';
import { runsIf } from '../helpers/runs-if.js';

const onPostgres = testDatabaseKind() === 'postgres';
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  if (onPostgres) database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

it.runIf(runsIf(onPostgres, 'a connection terminated inside a transaction: runs on PostgreSQL only (set DATABASE_URL)'))(
  'a connection terminated inside a transaction fails the next query as unavailable, and the pool recovers',
  async () => {
    const unhandled: unknown[] = [];
    const listener = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', listener);
    try {
      const failure = await database.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await terminate(rows[0]!.pid);
          // The client is checked out with no query running when its socket closes: the moment
          // pg emits 'error' on the client itself.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await sql`select 1`.execute(trx);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
      expect(unhandled).toEqual([]);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows[0]!.one).toBe(1);
    } finally {
      process.off('uncaughtException', listener);
    }
  },
);

it('tells a lost connection from other failures', () => {
  expect(isDatabaseUnavailable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
    true,
  );
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
  expect(isDatabaseUnavailable(new Error('invariant violated: x'))).toBe(false);
  expect(isDatabaseUnavailable('ECONNRESET')).toBe(false);
});

it('a database host that never answers fails the first query within seconds, as unavailable', async () => {
  // Accepts TCP connections and swallows what it is sent, like a host gone behind a dead route.
  const silent = net.createServer((socket) => socket.on('data', () => undefined));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  try {
    const started = Date.now();
    const failure = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/peerpay`, poolSize: 1 }).then(
      (database) => database.close().then(() => null),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    expect(Date.now() - started).toBeLessThan(8_000);
  } finally {
    silent.close();
  }
}, 20_000);
