// Restarts: the service is stopped and a new one started on the same DATA_DIR (chain state, master
// seed) and the same database. Nothing is credited twice, and nothing is missed: a deposit the
// first server had not yet read, and one made while the service was down (on its chain, started
// alone), are both credited after the restart, and swept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hash } from 'viem';
import { startEmbeddedChain } from '../../src/adapters/chain/embedded-chain.js';
import { createViemSandboxChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, TEST_MASTER_SEED, type TestServer, type TestUser } from '../helpers/test-server.js';
import {
  accountIdByHandle,
  custodyOf,
  drainDeposits,
  faucet,
  ledgerBalance,
  mined,
  onChainBalance,
  persistentTestDatabase,
  waitFor,
} from '../helpers/stablecoin-chain.js';
import { runSweeps } from '../../src/stablecoin/sweeps/sweep-service.js';

let dataDir: string;
let database: Awaited<ReturnType<typeof persistentTestDatabase>>;
let server: TestServer | null = null;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-restart-'));
  database = await persistentTestDatabase(dataDir);
});

afterAll(async () => {
  await server?.close();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(options: { jobs: boolean }): Promise<TestServer> {
  return startTestServer({}, { dataDir, database: await database.open(), jobs: options.jobs });
}

describe('stopping and starting the service', () => {
  let alice: TestUser;
  let aliceId: number;
  const seen = { deposit1: '0x' as Hash, deposit2: '0x' as Hash, deposit3: '0x' as Hash, cursor: 0n };

  it('first run: one deposit credited and swept, a second one mined but not yet read', async () => {
    server = await start({ jobs: false });
    alice = await registerUser(server);
    aliceId = await accountIdByHandle(server, alice);
    seen.deposit1 = await faucet(server, { address: alice.depositAddress, amount: 10, currency: 'USDC' });
    await mined(server, seen.deposit1);
    expect(await drainDeposits(server)).toBe(1);
    for (let i = 0; i < 3; i++) {
      await runSweeps(server.deps, 20);
      await server.deps.hotWalletOutbox.reconcile(50);
    }
    await runSweeps(server.deps, 20);
    expect(await onChainBalance(server, 'USDC', alice.depositAddress)).toBe(0n);
    seen.deposit2 = await faucet(server, { address: alice.depositAddress, amount: 20, currency: 'USDC' });
    await mined(server, seen.deposit2);
    seen.cursor = (await server.deps.db.selectFrom('chain_scan_cursors').select('next_block').executeTakeFirstOrThrow()).next_block;
    await server.close();
    server = null;
  });

  it('while the service is down, a third deposit arrives on its chain', async () => {
    const wallets = createHdWalletProvider(Buffer.from(TEST_MASTER_SEED.slice(2), 'hex'));
    const chain = await startEmbeddedChain({ dataDir: path.join(dataDir, 'chain'), tokenOwner: wallets.sandboxTokenOwner.address });
    try {
      expect(chain.initialisedTokens).toEqual([]); // the same chain, loaded from DATA_DIR
      const adapter = createViemSandboxChainAdapter({ rpcUrl: chain.rpcUrl, chainId: chain.chainId });
      seen.deposit3 = (
        await adapter.mint({
          token: chain.tokens.USDC,
          minter: wallets.sandboxTokenOwner,
          to: alice.depositAddress as Address,
          amount: 30_000_000n,
        })
      ).toLowerCase() as Hash;
      await waitFor('the mint to be mined', async () => (await adapter.getTransactionOutcome(seen.deposit3))?.status === 'success');
    } finally {
      await chain.stop();
    }
  });

  it('second run: both missed deposits are credited once, nothing again, and swept', async () => {
    server = await start({ jobs: true });
    await waitFor('the missed deposits', async () => (await ledgerBalance(server!, aliceId, 'USDC')) === 60_000_000n);
    // More rounds, by the jobs and by hand: nothing more.
    await drainDeposits(server);
    await new Promise((resolve) => setTimeout(resolve, 2 * server!.deps.config.chainPollIntervalMs));
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(60_000_000n);
    const rows = await server.deps.db
      .selectFrom('chain_deposits')
      .select(['tx_hash', 'amount'])
      .where('account_id', '=', aliceId)
      .orderBy('block_number')
      .execute();
    expect(rows).toEqual([
      { tx_hash: seen.deposit1, amount: 10_000_000n },
      { tx_hash: seen.deposit2, amount: 20_000_000n },
      { tx_hash: seen.deposit3, amount: 30_000_000n },
    ]);
    const cursor = (await server.deps.db.selectFrom('chain_scan_cursors').select('next_block').executeTakeFirstOrThrow()).next_block;
    expect(cursor).toBeGreaterThan(seen.cursor);

    await waitFor('the sweep', async () => (await onChainBalance(server!, 'USDC', alice.depositAddress)) === 0n);
    expect(await onChainBalance(server, 'USDC', server.deps.wallets.hotWallet.address)).toBe(60_000_000n);
    const custody = await custodyOf(server, 'USDC', 0n);
    expect(custody.onChain).toBe(custody.booked);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('third run: balances on chain and in the ledger are kept, and nothing is credited twice', async () => {
    await server!.close();
    server = await start({ jobs: false });
    expect(await drainDeposits(server)).toBe(0);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(60_000_000n);
    expect(await onChainBalance(server, 'USDC', server.deps.wallets.hotWallet.address)).toBe(60_000_000n);
    expect((await server.request('GET', '/stablecoin/balance', { key: alice.key })).body.USDC).toBe('60.000000');
  });
});
