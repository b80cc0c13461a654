// The database, the master seed and the chain belong together (DESIGN §15): the first start records
// the seed's fingerprint and the chain's identity; a later start with another seed, another (or a
// wiped) chain, or a new database for a seed already used on the chain stops, naming which, before
// anything is written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createWalletClient, erc20Abi, http } from 'viem';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { InstallationMismatchError } from '../../src/startup/installation-identity.js';
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

// The old check looked only at the hot wallet and account 1's address: an installation whose users
// from account 2 on received tokens, never swept (the hot wallet had no gas yet, or the tokens were
// moved out by other means), left nothing there for it to see.
describe('a new database on a chain where a later deposit address was used, its tokens gone again', () => {
  const wallets = createHdWalletProvider(Buffer.from(TEST_MASTER_SEED.slice(2), 'hex'));
  const later = wallets.depositSigner(37);
  let usedChainDir: string;
  let original: Awaited<ReturnType<typeof newDatabase>>;

  beforeAll(async () => {
    usedChainDir = tempDir();
    original = await newDatabase();
    // A new chain and a new database start.
    const server = await startOn({ seed: TEST_MASTER_SEED, dataDir: usedChainDir, db: original });
    try {
      const { publicClient, testClient } = chainClients(server);
      await mined(server, await faucet(server, { address: later.address, amount: 5, currency: 'EURC' }));
      // The tokens leave again, without peerpay's hot wallet: its key pays its own gas.
      await testClient.setBalance({ address: later.address, value: 10n ** 18n });
      const wallet = createWalletClient({ account: later, chain: publicClient.chain, transport: http(server.deps.chain.rpcUrl) });
      const elsewhere = wallets.walletFor(2 ** 31 - 1).address;
      const token = server.deps.chain.tokens.EURC;
      await mined(
        server,
        await wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [elsewhere, 5_000_000n] }),
      );
      // Nothing the old check looked at shows the use.
      expect(await publicClient.getTransactionCount({ address: wallets.hotWallet.address })).toBe(0);
      for (const holder of [wallets.walletFor(1).address, later.address]) {
        expect(await publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })).toBe(0n);
      }
    } finally {
      await server.close();
    }
  });

  it('stops, naming the address and the database, and writes nothing', async () => {
    const fresh = await newDatabase();
    const error = await refusal({ seed: TEST_MASTER_SEED, dataDir: usedChainDir, db: fresh });
    expect(error.mismatch).toBe('database');
    expect(error.message).toMatch(
      /^the database does not belong to this seed and chain: it is new, but the master seed was used on this chain before/,
    );
    expect(error.message).toContain(`the deposit address of account 37 (${later.address}) received EURC in block`);
    expect(await snapshot(fresh)).toEqual({ identity: [], accounts: '0', ledger: '0' });
  });

  it('the database that used the chain starts again on it', async () => {
    const server = await startOn({ seed: TEST_MASTER_SEED, dataDir: usedChainDir, db: original });
    await server.close();
  });
});
