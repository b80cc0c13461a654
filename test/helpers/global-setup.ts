// vitest globalSetup: what every test file would otherwise build for itself, built once per run.
// - The database, migrated once: on PGlite dumped to a file that each test database is loaded from,
//   on PostgreSQL a template database that each test database is created from.
// - One embedded chain per worker slot (VITEST_POOL_ID), with the sandbox tokens deployed and gas
//   granted as a server of TEST_MASTER_SEED would find it, and a snapshot of that state: a test
//   file reverts to it before use (test/helpers/shared-chain.ts), so each file sees a fresh chain.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { Kysely } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { connectChain, type ChainConnection } from '../../src/adapters/chain/connect-chain.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { loadMasterSeed } from '../../src/adapters/wallet/master-seed.js';
import { TEST_MASTER_SEED, type SharedChainFixture, type TestFixtures } from './test-fixtures.js';
import { takeSnapshot, writeSlotSnapshot } from './shared-chain.js';
import { ensureBuilt } from './built-service.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-test-fixtures-'));
  const cleanups: (() => Promise<void>)[] = [async () => fs.rmSync(workDir, { recursive: true, force: true })];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error('test fixtures:', error));
  };
  try {
    const fixtures: TestFixtures = {};
    const slots = Math.max(1, project.config.maxWorkers);
    const [database, sharedChain] = await Promise.all([
      prepareDatabaseTemplate(workDir, cleanups),
      startSharedChains({ workDir, slots, cleanups }),
      // The process tests run dist/main.js, as npm start does: built by npm ci, again here if older than src/.
      ensureBuilt(),
    ]);
    Object.assign(fixtures, database, { sharedChain });
    project.provide('peerpayTestFixtures', fixtures);
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}

async function prepareDatabaseTemplate(
  workDir: string,
  cleanups: (() => Promise<void>)[],
): Promise<Pick<TestFixtures, 'pgliteTemplateFile' | 'postgresTemplate'>> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    // WAL segments of 1 MB instead of 16: the template (and every test database loaded from it)
    // holds one segment, so each load unpacks 29 MB instead of 41, about a quarter faster.
    const client = await PGlite.create('memory://', { initDbStartParams: ['--wal-segsize=1'] });
    const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) });
    try {
      await migrateToLatest(db);
      // peerpay uses the one database PGlite opens; the cluster's two template databases are there
      // for CREATE DATABASE, which nothing here runs. Without them a test database loads 16 MB
      // instead of 31, and an open costs about a fifth less CPU (decision 0071).
      await client.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
      await client.exec('drop database template0');
      await client.exec('drop database template1');
      // A checkpoint first: a database loaded from the dump then starts without replaying the
      // migrations' WAL, once per test file.
      await client.exec('checkpoint');
      // Uncompressed: loading a plain tar is faster than unpacking a gzipped one, and it is read once per file.
      const dump = await client.dumpDataDir('none');
      const file = path.join(workDir, 'pglite-template.tar');
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      return { pgliteTemplateFile: file };
    } finally {
      await db.destroy();
    }
  }
  const name = `peerpay_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  cleanups.push(() => adminQuery(adminUrl, `drop database if exists ${name} with (force)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 1 });
  await database.close();
  return { postgresTemplate: name };
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

async function startSharedChains(options: {
  workDir: string;
  slots: number;
  cleanups: (() => Promise<void>)[];
}): Promise<SharedChainFixture> {
  const snapshotDir = path.join(options.workDir, 'chain-snapshots');
  fs.mkdirSync(snapshotDir);
  const wallets = createHdWalletProvider(loadMasterSeed({ seedHex: TEST_MASTER_SEED, dataDir: options.workDir }));
  const chains = await Promise.all(
    Array.from({ length: options.slots }, async (_, index) => {
      const config = loadConfig({ DATA_DIR: path.join(options.workDir, `chain-${index + 1}`), MASTER_SEED: TEST_MASTER_SEED });
      const connection: ChainConnection = await connectChain(config, wallets);
      options.cleanups.push(() => connection.stop());
      writeSlotSnapshot(snapshotDir, index + 1, await takeSnapshot(connection.rpcUrl));
      return connection.rpcUrl;
    }),
  );
  return { rpcUrls: chains, snapshotDir };
}
