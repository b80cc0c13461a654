// The database, the master seed and the chain belong together (DESIGN §15): the first start records
// the seed's fingerprint and the chain's identity; a later start with another seed, another (or a
// wiped) chain, or a new database for a seed already used on the chain stops, naming which, before
// anything is written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { InstallationMismatchError } from '../../src/platform/installation-identity.js';
import { registerUser, startTestServer, TEST_MASTER_SEED } from '../helpers/test-server.js';
import { chainClients, faucet, mined, persistentTestDatabase } from '../helpers/stablecoin-chain.js';

const OTHER_SEED = '0x' + 'cd'.repeat(32);
const dirs: string[] = [];
const databases: { drop(): Promise<void> }[] = [];
let chainDir: string;
let database: Awaited<ReturnType<typeof persistentTestDatabase>>;

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-identity-'));
  dirs.push(dir);
  return dir;
}

async function newDatabase() {
  const db = await persistentTestDatabase(tempDir());
  databases.push(db);
  return db;
}

async function snapshot(db: Awaited<ReturnType<typeof persistentTestDatabase>>): Promise<unknown> {
  const opened = await db.open();
  try {
    const identity = await opened.db.selectFrom('installation_identity').selectAll().execute();
    const accounts = await sql<{ n: string }>`select count(*)::text as n from accounts`.execute(opened.db);
    const ledger = await sql<{ n: string }>`select count(*)::text as n from ledger_transfers`.execute(opened.db);
    return { identity, accounts: accounts.rows[0]!.n, ledger: ledger.rows[0]!.n };
  } finally {
    await opened.close();
  }
}

async function startOn(options: { seed: string; dataDir: string; db: Awaited<ReturnType<typeof persistentTestDatabase>> }) {
  return startTestServer({ MASTER_SEED: options.seed }, { dataDir: options.dataDir, database: await options.db.open() });
}

async function refusal(options: Parameters<typeof startOn>[0]): Promise<InstallationMismatchError> {
  const error = await startOn(options).then(
    async (server) => {
      await server.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InstallationMismatchError);
  expect((error as Error).message).not.toMatch(/\n/);
  return error as InstallationMismatchError;
}

beforeAll(async () => {
  chainDir = tempDir();
  database = await newDatabase();
  const server = await startOn({ seed: TEST_MASTER_SEED, dataDir: chainDir, db: database });
  try {
    const alice = await registerUser(server);
    // The first deposit address receives tokens on this chain.
    await mined(server, await faucet(server, { address: alice.depositAddress, amount: 3, currency: 'USDC' }));
  } finally {
    await server.close();
  }
});

afterAll(async () => {
  for (const db of databases) await db.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('installation identity', () => {
  it('the first start recorded the fingerprint of the seed (never the seed) and the chain; the same three start again', async () => {
    const recorded = (await snapshot(database)) as {
      identity: { seed_fingerprint: string; chain_id: number; chain_block1_hash: string }[];
    };
    expect(recorded.identity).toHaveLength(1);
    expect(recorded.identity[0]!.seed_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(recorded.identity[0]!.seed_fingerprint).not.toContain('ab'.repeat(32));
    expect(recorded.identity[0]!.chain_id).toBe(137);
    const server = await startOn({ seed: TEST_MASTER_SEED, dataDir: chainDir, db: database });
    await server.close();
  });

  it('the same chain restarted many times, with blocks in between, still belongs (anvil remakes its block 0 on every load)', async () => {
    for (let i = 0; i < 3; i++) {
      const server = await startOn({ seed: TEST_MASTER_SEED, dataDir: chainDir, db: database });
      try {
        await chainClients(server).testClient.mine({ blocks: 20 });
        // anvil saves its state every second and on stop.
        await new Promise((resolve) => setTimeout(resolve, 1_200));
      } finally {
        await server.close();
      }
    }
  });

  it('another master seed on this database stops, naming the seed, and writes nothing', async () => {
    const before = await snapshot(database);
    const error = await refusal({ seed: OTHER_SEED, dataDir: chainDir, db: database });
    expect(error.mismatch).toBe('master_seed');
    expect(error.message).toMatch(/master seed/);
    expect(await snapshot(database)).toEqual(before);
  });

  it('a wiped (new) chain under this database stops, naming the chain', async () => {
    const before = await snapshot(database);
    const error = await refusal({ seed: TEST_MASTER_SEED, dataDir: tempDir(), db: database });
    expect(error.mismatch).toBe('chain');
    expect(error.message).toMatch(/chain/);
    expect(await snapshot(database)).toEqual(before);
  });

  it('a wiped (new) database for a seed already used on this chain stops, naming the database', async () => {
    const fresh = await newDatabase();
    const error = await refusal({ seed: TEST_MASTER_SEED, dataDir: chainDir, db: fresh });
    expect(error.mismatch).toBe('database');
    expect(error.message).toMatch(/database/);
    expect(await snapshot(fresh)).toEqual({ identity: [], accounts: '0', ledger: '0' });
  });

  it('a database with accounts and no recorded identity does not adopt another seed; it adopts the one that derives its addresses', async () => {
    const opened = await database.open();
    await opened.db.deleteFrom('installation_identity').execute();
    await opened.close();
    const before = await snapshot(database);
    const error = await refusal({ seed: OTHER_SEED, dataDir: chainDir, db: database });
    expect(error.mismatch).toBe('master_seed');
    expect(await snapshot(database)).toEqual(before);
    const server = await startOn({ seed: TEST_MASTER_SEED, dataDir: chainDir, db: database });
    await server.close();
    expect(((await snapshot(database)) as { identity: unknown[] }).identity).toHaveLength(1);
  });
});
