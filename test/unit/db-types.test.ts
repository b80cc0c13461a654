// Kysely's table types have one source, the migrated database (DESIGN §21): src/db/generated-types.ts
// is what `npm run generate:db-types` makes of it, and the unions src/db/schema.ts narrows columns
// to are the database's CHECK constraints. A migration that adds, drops or changes a column, or the
// values a column allows, without the types following it fails here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { sql, type Insertable, type Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DB_TYPES, writeDbTypes } from '../../scripts/db-types.js';
import { CHECKED_VALUES, type DB } from '../../src/db/schema.js';
import { openTestDatabase } from '../helpers/test-database.js';

// Checked by the type check (npm test runs it), not at run time: a narrowed column keeps what the
// database says of it, whether it may be null and whether an insert may leave it out.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const narrowingsKeepTheColumns: [
  Same<Selectable<DB['accounts']>['frozen_scope'], 'all' | 'payouts' | null>,
  Same<Insertable<DB['accounts']>['frozen_scope'], 'all' | 'payouts' | null | undefined>,
  Same<Selectable<DB['chain_deposits']>['status'], 'credited' | 'blocked' | 'released'>,
  Same<Insertable<DB['chain_deposits']>['status'], 'credited' | 'blocked' | 'released' | undefined>,
  Same<Insertable<DB['fiat_transfers']>['status'], 'processing' | 'pending' | 'completed' | 'failed'>,
  Same<Selectable<DB['x402_payments']>['protocol_version'], 1 | 2 | null>,
  Same<Selectable<DB['webhook_endpoints']>['events'], string[] | null>,
  Same<Insertable<DB['webhook_endpoints']>['events'], string | null | undefined>,
] = [true, true, true, true, true, true, true, true];
void narrowingsKeepTheColumns;

/** Each table of the generated DB interface: its columns, and whether each may be null. */
function generatedColumns(): Record<string, Record<string, boolean>> {
  const source = ts.createSourceFile(GENERATED_DB_TYPES, fs.readFileSync(GENERATED_DB_TYPES, 'utf8'), ts.ScriptTarget.Latest);
  const interfaces = new Map(source.statements.filter(ts.isInterfaceDeclaration).map((node) => [node.name.text, node]));
  const membersOf = (name: string) => {
    const node = interfaces.get(name);
    if (!node) throw new Error(`${GENERATED_DB_TYPES} declares no interface ${name}`);
    return node.members.filter(ts.isPropertySignature).map((member) => ({ name: member.name.getText(source), type: member.type! }));
  };
  const tables: Record<string, Record<string, boolean>> = {};
  for (const table of membersOf('DB')) {
    const columns: Record<string, boolean> = {};
    for (const column of membersOf(table.type.getText(source))) columns[column.name] = mayBeNull(column.type);
    tables[table.name] = columns;
  }
  return tables;
}

/** `T | null`, also inside Generated<…>. */
function mayBeNull(type: ts.TypeNode): boolean {
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Generated')
    return mayBeNull(type.typeArguments![0]!);
  return ts.isUnionTypeNode(type) && type.types.some((t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
}

/** The values of a CHECK constraint `column = ANY (ARRAY[…])` or `column = …`, as PostgreSQL prints it. */
function allowedValues(definition: string, column: string): (string | number)[] | undefined {
  const match = new RegExp(`^CHECK \\(\\(${column} = (?:ANY \\(ARRAY\\[(.*)\\]\\)|(.*))\\)\\)$`).exec(definition);
  const list = match?.[1] ?? match?.[2];
  if (list === undefined) return undefined;
  return list.split(', ').map((item) => {
    const text = /^'(.*)'::text$/.exec(item);
    return text ? text[1]!.replaceAll("''", "'") : Number(item);
  });
}

describe('database types', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('src/db/generated-types.ts is what the migrations give (run `npm run generate:db-types` when this fails)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-db-types-'));
    try {
      const outFile = path.join(dir, 'generated-types.ts');
      // The script's own way: a scratch database on the DATABASE_URL server, or in-memory PGlite.
      await writeDbTypes({ outFile, adminUrl: process.env.DATABASE_URL });
      expect(fs.readFileSync(outFile, 'utf8')).toBe(fs.readFileSync(GENERATED_DB_TYPES, 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has every column of every table, nullable where the database allows null', async () => {
    const rows = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>`
      select table_name, column_name, is_nullable from information_schema.columns
       where table_schema = 'public' and table_name not like 'kysely\\_%'`.execute(database.db);
    const migrated: Record<string, Record<string, boolean>> = {};
    for (const row of rows.rows) (migrated[row.table_name] ??= {})[row.column_name] = row.is_nullable === 'YES';
    expect(Object.keys(migrated).length).toBeGreaterThan(40);
    expect(generatedColumns()).toEqual(migrated);
  });

  it('narrows columns to exactly the values their CHECK constraints allow', async () => {
    const rows = await sql<{ table_name: string; column_name: string; definition: string }>`
      select c.conrelid::regclass::text as table_name, a.attname as column_name, pg_get_constraintdef(c.oid) as definition
        from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       where c.contype = 'c' and cardinality(c.conkey) = 1`.execute(database.db);
    const checked = Object.entries(CHECKED_VALUES).flatMap(([table, columns]) =>
      Object.entries(columns).map(([column, values]: [string, readonly (string | number)[]]) => ({ table, column, values })),
    );
    for (const { table, column, values } of checked) {
      const lists = rows.rows
        .filter((row) => row.table_name === table && row.column_name === column)
        .map((row) => allowedValues(row.definition, column))
        .filter((list) => list !== undefined);
      expect(lists, `${table}.${column}: one CHECK constraint lists its values`).toHaveLength(1);
      expect([...values].sort(), `${table}.${column}`).toEqual(lists[0]!.sort());
    }
  });
});
