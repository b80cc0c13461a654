// A fresh, migrated database for each test file: in-memory PGlite by default, or a new PostgreSQL
// database created on the server named by DATABASE_URL (and dropped afterwards). Under the main
// vitest config both are copies of the template that test/helpers/global-setup.ts migrated once
// (a PGlite dump loaded, or `create database … template …`); elsewhere they are created and
// migrated here.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { TestFixtures } from './test-fixtures.js';

function testFixtures(): TestFixtures | undefined {
  try {
    return inject('peerpayTestFixtures');
  } catch {
    return undefined;
  }
}

/**
 * The template's bytes as the Blob PGlite loads, read from the file once: node's own
 * Blob.arrayBuffer() copies the whole template in chunks at every call, a fifth of the CPU of an
 * open. PGlite only reads them (its memory file system copies each file it unpacks).
 */
class TemplateBytes extends Blob {
  constructor(private readonly content: ArrayBuffer) {
    super();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.content);
  }
}

let pgliteTemplate: Blob | undefined;

/** The migrated PGlite template of this run, read once per worker process; undefined outside the main config. */
function readPgliteTemplate(): Blob | undefined {
  const file = testFixtures()?.pgliteTemplateFile;
  if (!file) return undefined;
  if (!pgliteTemplate) {
    const bytes = fs.readFileSync(file);
    pgliteTemplate = new TemplateBytes(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return pgliteTemplate;
}

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

/**
 * A new PostgreSQL database on the DATABASE_URL server, empty (a process started on it migrates
 * it), or with `migrated` a copy of the run's migrated template when there is one; undefined when
 * testing on PGlite.
 */
export async function createPostgresTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return undefined;
  const name = `peerpay_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? testFixtures()?.postgresTemplate : undefined;
  await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
}

export async function openTestDatabase(): Promise<Database & { url: string | undefined }> {
  const postgres = await createPostgresTestDatabase({ migrated: true });
  if (!postgres) return { ...(await openDatabase({ pgliteTemplate: readPgliteTemplate() })), url: undefined };
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

/** PGlite files in `dir` that outlive one open (restart tests): the first open copies the migrated template into it when there is one. */
export function openPgliteTestDatabase(dir: string): Promise<Database> {
  const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
  return openDatabase({ pgliteDir: dir, pgliteTemplate: fresh ? readPgliteTemplate() : undefined });
}
