// Statements sent to PGlite as single protocol messages (src/db/pglite-statements.ts): the same
// rows, types, counts and errors as PGlite's own query(), named statements kept within a bound,
// and the cases that must not use a kept plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PgliteStatements } from '../../src/db/pglite-statements.js';

const INT8_OID = 20;
let client: PGlite;
let statements: PgliteStatements;

async function preparedCount(): Promise<number> {
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
  return rows[0]!.n;
}

beforeAll(async () => {
  client = await PGlite.create('memory://', { parsers: { [INT8_OID]: (value: string) => BigInt(value) } });
  await client.exec(`
    create table items (id bigint primary key, name text not null, tags text[], doc jsonb, at timestamptz, ok boolean, status text);
    create unique index items_open_name on items (name) where status = 'open';`);
  statements = new PgliteStatements(client);
});
afterAll(() => client.close());

describe('statements sent as one message', () => {
  it('give the rows, types and counts that PGlite query() gives', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const insert =
      'insert into items (id, name, tags, doc, at, ok, status) values ($1, $2, $3, $4, $5, $6, $7), ($8, $9, null, null, null, null, null)';
    const inserted = await statements.run(insert, [1n, 'a', ['x', 'y,z'], { k: [1, 'two'] }, at, true, 'open', 2n, 'b']);
    expect(inserted).toEqual({ rows: [], affectedRows: 2 });
    const select = 'select * from items where id = any($1::bigint[]) order by id';
    const ours = await statements.run(select, [[1n, 2n]]);
    const theirs = await client.query(select, [[1n, 2n]]);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.rows[0]).toEqual({ id: 1n, name: 'a', tags: ['x', 'y,z'], doc: { k: [1, 'two'] }, at, ok: true, status: 'open' });
    expect(await statements.run('update items set ok = $1 where id > $2', [false, 0])).toEqual({ rows: [], affectedRows: 2 });
    expect(await statements.run('update items set ok = $1 where id > $2', [false, 5])).toEqual({ rows: [] });
    expect(await statements.run('select 1 as one', [])).toEqual({ rows: [{ one: 1 }] });
  });

  it('parse a text once under a name, and keep at most 200 of them', async () => {
    const before = await preparedCount();
    for (let i = 0; i < 3; i++) await statements.run('select name from items where id = $1', [1n]);
    expect(await preparedCount()).toBe(before + 1);
    for (let i = 0; i < 250; i++) await statements.run(`select ${i} as n, name from items where id = $1`, [1n]);
    // The evicted ones are closed with the next message.
    await statements.run('select 1 as one', []);
    expect(await preparedCount()).toBeLessThanOrEqual(200);
  });

  it('plan an ON CONFLICT on a partial index with its values every time (a generic plan cannot infer the index)', async () => {
    const text = 'insert into items (id, name, status) values ($1, $2, $3) on conflict (name) where status = $4 do nothing';
    for (let i = 0; i < 12; i++) await statements.run(text, [100n + BigInt(i), 'dup', 'open', 'open']);
    const { rows } = await statements.run("select count(*)::int as n from items where name = 'dup'", []);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('forget kept statements after DDL, so that a changed table gives its new columns', async () => {
    const text = 'select * from items where id = $1';
    await statements.run(text, [1n]);
    await statements.run('alter table items add column note text', []);
    const { rows } = await statements.run(text, [1n]);
    expect(rows[0]).toHaveProperty('note', null);
  });

  it('fail with the database error, and leave the connection usable', async () => {
    const insert = 'insert into items (id, name) values ($1, $2)';
    await expect(statements.run(insert, [1n, 'again'])).rejects.toMatchObject({ code: '23505' });
    await statements.run('begin', []);
    await expect(statements.run(insert, [1n, 'again'])).rejects.toMatchObject({ code: '23505' });
    await expect(statements.run('select 1 as one', [])).rejects.toMatchObject({ code: '25P02' });
    await statements.run('rollback', []);
    await expect(statements.run('select nonsense from items', [])).rejects.toMatchObject({ code: '42703' });
    expect((await statements.run('select name from items where id = $1', [1n])).rows).toEqual([{ name: 'a' }]);
  });
});
