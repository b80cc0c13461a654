// A fresh, empty database for each test file: in-memory PGlite by default, or a new PostgreSQL
// database created on the server named by DATABASE_URL (and dropped afterwards).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';

export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** A new, empty PostgreSQL database on the DATABASE_URL server; undefined when testing on PGlite. */
export async function createPostgresTestDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return undefined;
  const name = `peerpay_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
}

export async function openTestDatabase(): Promise<Database & { url: string | undefined }> {
  const postgres = await createPostgresTestDatabase();
  if (!postgres) return { ...(await openDatabase({})), url: undefined };
  const database = await openDatabase({ url: postgres.url, poolSize: 20 });
  return {
    ...database,
    url: postgres.url,
    async close() {
      await database.close();
      await postgres.drop();
    },
  };
}
