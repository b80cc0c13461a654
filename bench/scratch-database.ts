// The PostgreSQL server the benchmarks measure on, reached as its administrator
// (BENCH_PG_ADMIN_URL): statements outside any measured database, and the scratch databases each
// measurement creates and drops.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `text` on a connection of its own to `url` (the admin URL unless told) and answers its rows. */
export async function adminQuery(text: string, url = ADMIN_URL): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** A new, empty database on the admin URL's server, named `<prefix>_<random>`; the caller drops it. */
export async function createScratchDatabase(prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return { name, url: u.toString() };
}

/** Drops a scratch database, closing whatever connections it still has. */
export async function dropScratchDatabase(name: string): Promise<void> {
  await adminQuery(`drop database if exists ${name} with (force)`);
}
