// Named prepared statements (src/db/prepared-statements.ts, decision 0051): a connection sends a
// text named once it is hot, always under the same name; never more than its bound of names
// however many texts vary; never a statement without parameters or a top-level `select *`; a
// statement PostgreSQL refuses because its kept plan's result changed goes under a new name. On
// PostgreSQL: the statements really are prepared on the connection, bounded, and answer as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type pg from 'pg';
import { createTextCounts, MAX_NAMED_PER_CONNECTION, prepareHotStatements } from '../../src/db/prepared-statements.js';
import { createPostgresTestDatabase, openTestDatabase, testDatabaseKind } from '../helpers/test-database.js';
import { openDatabase } from '../../src/db/database.js';
import { POSTGRES_ONLY, runsIf } from '../helpers/runs-if.js';

interface Sent {
  name?: string;
  text: string;
}

/** A client that records what it is asked to send; `fail` makes the next named call fail with that code. */
function recordingClient() {
  const sent: Sent[] = [];
  const state = { fail: null as string | null, transaction: 'T' as 'I' | 'T' | 'E' };
  const client: {
    query: (config: unknown, values?: unknown[]) => Promise<unknown>;
    getTransactionStatus: () => string;
  } = {
    getTransactionStatus: () => state.transaction,
    query: (config: unknown) => {
      const c: Sent = typeof config === 'string' ? { text: config } : (config as Sent);
      sent.push(c.name === undefined ? { text: c.text } : { name: c.name, text: c.text });
      if (c.name !== undefined && state.fail) {
        const code = state.fail;
        state.fail = null;
        return Promise.reject(Object.assign(new Error('refused'), { code }));
      }
      return Promise.resolve({ rows: [] });
    },
  };
  prepareHotStatements(client as unknown as pg.ClientBase, createTextCounts());
  return { client, sent, state };
}

describe('which statements go named', () => {
  it('a text goes named once hot, and always under the same name', async () => {
    const { client, sent } = recordingClient();
    for (let i = 0; i < 6; i++) await client.query('select id from t where id = $1', [i]);
    expect(sent.map((s) => s.name ?? null)).toEqual([null, null, 'peerpay_0', 'peerpay_0', 'peerpay_0', 'peerpay_0']);
  });

  it('never without parameters, nor a top-level select *, nor an ON CONFLICT on a partial index', async () => {
    const { client, sent } = recordingClient();
    for (let i = 0; i < 5; i++) {
      await client.query('begin', []);
      await client.query('commit');
      await client.query('  SELECT * from peerpay_f($1)', [i]);
      await client.query('insert into t (a) values ($1) on conflict (a) where open = $2 do nothing', [i, true]);
    }
    expect(sent.every((s) => s.name === undefined)).toBe(true);
  });

  it('a connection names at most its bound, however many texts vary', async () => {
    const { client, sent } = recordingClient();
    for (let t = 0; t < MAX_NAMED_PER_CONNECTION * 2; t++) {
      for (let i = 0; i < 4; i++) await client.query(`select id from t where id in (${'$1, '.repeat(t)}$1)`, [i]);
    }
    const names = new Set(sent.flatMap((s) => (s.name ? [s.name] : [])));
    expect(names.size).toBe(MAX_NAMED_PER_CONNECTION);
    // Each name always stands for one text.
    for (const name of names) expect(new Set(sent.filter((s) => s.name === name).map((s) => s.text)).size).toBe(1);
  });

  it('a text whose kept plan PostgreSQL refuses goes under a new name; other failures keep it', async () => {
    const { client, sent, state } = recordingClient();
    const text = 'select id from t where id = $1';
    for (let i = 0; i < 3; i++) await client.query(text, [i]);
    state.fail = '23505';
    await expect(client.query(text, [1])).rejects.toThrow('refused');
    await client.query(text, [1]);
    state.fail = '0A000';
    await expect(client.query(text, [1])).rejects.toThrow('refused');
    await client.query(text, [1]);
    expect(sent.slice(2).map((s) => s.name)).toEqual(['peerpay_0', 'peerpay_0', 'peerpay_0', 'peerpay_0', 'peerpay_1']);
  });

  it('outside a transaction, a statement refused for its kept plan is sent again unnamed and answers', async () => {
    const { client, sent, state } = recordingClient();
    const text = 'select id from t where id = $1';
    for (let i = 0; i < 3; i++) await client.query(text, [i]);
    state.transaction = 'I';
    state.fail = '0A000';
    await expect(client.query(text, [1])).resolves.toEqual({ rows: [] });
    state.fail = '23505';
    await expect(client.query(text, [1])).rejects.toThrow('refused');
    expect(sent.slice(2).map((s) => s.name ?? null)).toEqual(['peerpay_0', 'peerpay_0', null, 'peerpay_1']);
  });
});

const onPostgres = testDatabaseKind() === 'postgres';
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  if (onPostgres) database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe.runIf(runsIf(onPostgres, POSTGRES_ONLY))('on PostgreSQL', () => {
  it('hot statements are prepared on their connection, bounded, and answer as unnamed ones do', async () => {
    await database.db.connection().execute(async (conn) => {
      for (let i = 0; i < 5; i++) {
        const { rows } = await sql<{ n: number }>`select ${i}::integer + 1 as n`.execute(conn);
        expect(rows).toEqual([{ n: i + 1 }]);
      }
      for (let t = 0; t < MAX_NAMED_PER_CONNECTION + 20; t++) {
        for (let i = 0; i < 3; i++) await sql`select ${i}::integer + ${sql.raw(String(t + 2))} as n`.execute(conn);
      }
      const { rows } = await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements where name like 'peerpay_%'`.execute(conn);
      expect(rows.length).toBe(MAX_NAMED_PER_CONNECTION);
      expect(rows.map((r) => r.statement)).toContain('select $1::integer + 1 as n');
    });
  });

  it('DATABASE_PREPARED_STATEMENTS=off: nothing is prepared, however often a text comes', async () => {
    const postgres = (await createPostgresTestDatabase({ migrated: true }))!;
    const unnamed = await openDatabase({ url: postgres.url, poolSize: 1, preparedStatements: false });
    try {
      await unnamed.db.connection().execute(async (conn) => {
        for (let i = 0; i < 10; i++)
          expect((await sql<{ n: number }>`select ${i}::integer + 1 as n`.execute(conn)).rows).toEqual([{ n: i + 1 }]);
        const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_prepared_statements`.execute(conn);
        expect(rows).toEqual([{ n: '0' }]);
      });
    } finally {
      await unnamed.close();
      await postgres.drop();
    }
  });

  it('a column changing type under a kept plan (a rolling migration): alone, the statement still answers; in a transaction, that transaction fails and the next one answers', async () => {
    const postgres = (await createPostgresTestDatabase({ migrated: false }))!;
    const opened = await openDatabase({ url: postgres.url, poolSize: 1 });
    try {
      await opened.db.connection().execute(async (conn) => {
        await sql`create table plan_change (id integer primary key, v integer not null)`.execute(conn);
        await sql`insert into plan_change values (1, 7)`.execute(conn);
        const read = () => sql<{ v: unknown }>`select v from plan_change where id = ${1}`.execute(conn);
        for (let i = 0; i < 4; i++) expect((await read()).rows).toEqual([{ v: 7 }]);
        await sql`alter table plan_change alter column v type text`.execute(conn);
        expect((await read()).rows).toEqual([{ v: '7' }]);
        // Named again under a new name, which keeps the text column's plan.
        expect((await read()).rows).toEqual([{ v: '7' }]);
        await sql`alter table plan_change alter column v type bigint using v::bigint`.execute(conn);
        await sql`begin`.execute(conn);
        await expect(read()).rejects.toMatchObject({ code: '0A000' });
        await sql`rollback`.execute(conn);
        expect((await read()).rows.map((r) => String(r.v))).toEqual(['7']);
      });
    } finally {
      await opened.close();
      await postgres.drop();
    }
  });
});
