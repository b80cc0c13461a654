// The first start's database from the template that npm ci makes: a migrated, empty cluster,
// unpacked only where DATA_DIR/pglite does not exist yet, private to the user, and opened as usual.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { seedPgliteFromTemplate, writePgliteTemplate } from '../../src/startup/pglite-template.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-pglite-template-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the PGlite template', () => {
  it('is a migrated cluster that a first start unpacks and opens, and that never replaces a database', async () => {
    const template = path.join(root, 'template.tar.gz');
    expect(await writePgliteTemplate(template)).toBeGreaterThan(0);
    expect(fs.readdirSync(root)).toEqual(['template.tar.gz']);

    const previousUmask = process.umask(0o077);
    const pgliteDir = path.join(root, 'data', 'pglite');
    try {
      expect(await seedPgliteFromTemplate(pgliteDir, template)).toBe(true);
    } finally {
      process.umask(previousUmask);
    }
    expect(fs.existsSync(`${pgliteDir}.partial`)).toBe(false);
    const loose = fs
      .readdirSync(pgliteDir, { recursive: true, withFileTypes: true })
      .filter((entry) => (fs.statSync(path.join(entry.parentPath, entry.name)).mode & 0o077) !== 0);
    expect(loose.map((entry) => entry.name)).toEqual([]);

    const database = await openDatabase({ pgliteDir });
    try {
      const migrations = await sql<{ count: number }>`select count(*)::int as count from kysely_migration`.execute(database.db);
      expect(migrations.rows[0]!.count).toBeGreaterThan(0);
      const accounts = await sql<{ count: number }>`select count(*)::int as count from accounts`.execute(database.db);
      expect(accounts.rows[0]!.count).toBe(0);
    } finally {
      await database.close();
    }

    // An existing database is never touched; without a template nothing happens.
    const before = fs.readdirSync(pgliteDir).length;
    expect(await seedPgliteFromTemplate(pgliteDir, template)).toBe(false);
    expect(fs.readdirSync(pgliteDir)).toHaveLength(before);
    expect(await seedPgliteFromTemplate(path.join(root, 'other', 'pglite'), path.join(root, 'missing.tar.gz'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'other'))).toBe(false);
  }, 60_000);
});
