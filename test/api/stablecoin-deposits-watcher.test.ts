// The deposit watcher against a running server and its embedded chain, with the background jobs
// off so that each test decides when rounds run: every Transfer log to a deposit address credited
// exactly once however many rounds run (also at once), only the two tokens' logs, not peerpay's
// own movements, many accounts read a page at a time, and one scanner at a time on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createWalletClient, encodeFunctionData, getAddress, http, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { insertAccount, setWallet } from '../../src/accounts/accounts-repository.js';
import { SANDBOX_TOKEN_RUNTIME_BYTECODE } from '../../src/adapters/chain/sandbox-tokens.js';
import { fullTokenAbi } from '../../src/adapters/chain/token-abi.js';
import { ACCOUNTS_PER_QUERY, scanDeposits, watchDeposits } from '../../src/stablecoin/deposits/deposit-watcher.js';
import { DEPOSIT_WATCHER_LOCK_KEY } from '../../src/stablecoin/deposits/scan-lock.js';
import { openDatabase } from '../../src/db/database.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import {
  accountIdByHandle,
  chainClients,
  custodyOf,
  drainDeposits,
  faucet,
  ledgerBalance,
  mined,
  onChainBalance,
} from '../helpers/stablecoin-chain.js';
import { runsIf, POSTGRES_ONLY } from '../helpers/runs-if.js';
import { selfWallets } from '../helpers/self-wallets.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let aliceId: number;
let bobId: number;

beforeAll(async () => {
  server = await startTestServer();
  alice = await registerUser(server);
  bob = await registerUser(server);
  aliceId = await accountIdByHandle(server, alice);
  bobId = await accountIdByHandle(server, bob);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function depositRows(txHash: string) {
  return server.deps.db.selectFrom('chain_deposits').selectAll().where('tx_hash', '=', txHash.toLowerCase()).execute();
}

describe('crediting deposits', () => {
  it('credits a faucet transfer to a deposit address once, with its block and sender recorded', async () => {
    const tx = await faucet(server, { address: alice.depositAddress, amount: 100, currency: 'USDC' });
    const block = await mined(server, tx);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(0n);
    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(100_000_000n);
    const rows = await depositRows(tx);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account_id: aliceId,
      token: 'USDC',
      amount: 100_000_000n,
      block_number: block,
      to_address: alice.depositAddress,
    });
    expect(rows[0]!.from_address).toBe('0x0000000000000000000000000000000000000000');
    const { publicClient } = chainClients(server);
    expect(rows[0]!.block_hash).toBe((await publicClient.getBlock({ blockNumber: block })).hash);
    // The balance endpoint reads the same ledger.
    const balance = await server.request('GET', '/stablecoin/balance', { key: alice.key });
    expect(balance.body).toEqual({ USDC: '100.000000', EURC: '0.000000' });
  });

  it('credits nothing twice however many rounds run, one after another or at once', async () => {
    const tx = await faucet(server, { address: bob.depositAddress, amount: 12.345678, currency: 'EURC' });
    await mined(server, tx);
    const rounds = await Promise.all([
      ...Array.from({ length: 6 }, () => watchDeposits(server.deps)),
      // Rounds that bypass the scan lock: the unique (txHash, logIndex) and the cursor's
      // compare-and-set alone must keep them right.
      ...Array.from({ length: 6 }, () => scanDeposits(server.deps)),
    ]);
    expect(rounds.reduce((sum, r) => sum + r.credited, 0)).toBe(1);
    for (let i = 0; i < 5; i++) await watchDeposits(server.deps);
    expect(await depositRows(tx)).toHaveLength(1);
    expect(await ledgerBalance(server, bobId, 'EURC')).toBe(12_345_678n);
  });

  it('credits several transfers in one transaction and one block each once', async () => {
    // A contract-free way to put two Transfer logs in one block: two mints mined together.
    const { testClient } = chainClients(server);
    await testClient.setAutomine(false);
    let hashes: Hash[];
    try {
      hashes = [
        await faucet(server, { address: alice.depositAddress, amount: 1, currency: 'USDC' }),
        await faucet(server, { address: bob.depositAddress, amount: 2, currency: 'USDC' }),
      ];
      await testClient.mine({ blocks: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
    const blocks = await Promise.all(hashes.map((h) => mined(server, h)));
    expect(blocks[0]).toBe(blocks[1]);
    const before = { alice: await ledgerBalance(server, aliceId, 'USDC'), bob: await ledgerBalance(server, bobId, 'USDC') };
    expect(await drainDeposits(server)).toBe(2);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(before.alice + 1_000_000n);
    expect(await ledgerBalance(server, bobId, 'USDC')).toBe(before.bob + 2_000_000n);
  });
});

describe('what is not a deposit', () => {
  it('ignores another token contract’s transfers to a deposit address', async () => {
    // A copy of the sandbox token at a fresh address: same code, same event, another contract.
    const { publicClient, testClient } = chainClients(server);
    const fake = getAddress(`0x${'fa'.repeat(20)}`);
    const owner = privateKeyToAccount(generatePrivateKey());
    await testClient.setCode({ address: fake, bytecode: SANDBOX_TOKEN_RUNTIME_BYTECODE });
    await testClient.setBalance({ address: owner.address, value: 10n ** 18n });
    const wallet = createWalletClient({ account: owner, chain: publicClient.chain, transport: http(server.deps.chain.rpcUrl) });
    const send = async (data: `0x${string}`) => {
      const hash = await wallet.sendTransaction({ to: fake, data });
      expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    await send(encodeFunctionData({ abi: fullTokenAbi, functionName: 'initialize', args: ['USD Coin', 'USDC', 6, owner.address] }));
    await send(encodeFunctionData({ abi: fullTokenAbi, functionName: 'mint', args: [alice.depositAddress as Address, 500_000_000n] }));
    const before = await ledgerBalance(server, aliceId, 'USDC');
    const deposits = await server.deps.db.selectFrom('chain_deposits').select('id').execute();
    expect(await drainDeposits(server)).toBe(0);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(before);
    expect(await server.deps.db.selectFrom('chain_deposits').select('id').execute()).toHaveLength(deposits.length);
  });

  it('does not credit transfers from the hot wallet or from another deposit address', async () => {
    const { deps } = server;
    const { testClient } = chainClients(server);
    // The hot wallet gets tokens of its own, then sends some to Alice's deposit address.
    await mined(server, await faucet(server, { address: deps.wallets.hotWallet.address, amount: 5, currency: 'USDC' }));
    await drainDeposits(server);
    const nonce = await deps.chain.chain.getNonce({ address: deps.wallets.hotWallet.address, blockTag: 'pending' });
    const fromHot = await deps.chain.chain.sendTokenTransfer({
      token: deps.chain.tokens.USDC,
      sender: selfWallets(deps.wallets).hotWallet,
      to: alice.depositAddress as Address,
      amount: 3_000_000n,
      nonce,
    });
    await mined(server, fromHot);
    // Bob's deposit address (given gas for this test only) sends to Alice's.
    const bobSigner = selfWallets(deps.wallets).depositSigner(bobId);
    await testClient.setBalance({ address: bobSigner.address, value: 10n ** 17n });
    const bobNonce = await deps.chain.chain.getNonce({ address: bobSigner.address, blockTag: 'pending' });
    const fromBob = await deps.chain.chain.sendTokenTransfer({
      token: deps.chain.tokens.USDC,
      sender: bobSigner,
      to: alice.depositAddress as Address,
      amount: 1_000_000n,
      nonce: bobNonce,
    });
    await mined(server, fromBob);
    await testClient.setBalance({ address: bobSigner.address, value: 0n });

    const before = { alice: await ledgerBalance(server, aliceId, 'USDC'), bob: await ledgerBalance(server, bobId, 'USDC') };
    expect(await drainDeposits(server)).toBe(0);
    expect(await depositRows(fromHot)).toHaveLength(0);
    expect(await depositRows(fromBob)).toHaveLength(0);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(before.alice);
    expect(await ledgerBalance(server, bobId, 'USDC')).toBe(before.bob);
  });
});

describe('many accounts', () => {
  it(`reads deposit addresses ${ACCOUNTS_PER_QUERY} at a time and credits deposits on every page`, async () => {
    // Accounts straight into the database (registration's password hashing would dominate the test).
    const ids: number[] = [];
    await server.deps.db.transaction().execute(async (trx) => {
      for (let i = 0; i < ACCOUNTS_PER_QUERY * 2 + 10; i++) {
        const id = await insertAccount(trx, {
          handle: `PA-P${String(i).padStart(7, '0')}`,
          email: `paged${i}@example.com`,
          name: 'Paged',
          passwordHash: 'x',
          phone: null,
        });
        await setWallet(trx, id, selfWallets(server.deps.wallets).walletFor(id));
        ids.push(id);
      }
    });
    const first = ids[0]!;
    const middle = ids[ACCOUNTS_PER_QUERY + 3]!;
    const last = ids[ids.length - 1]!;
    for (const id of [first, middle, last]) {
      await mined(
        server,
        await faucet(server, { address: selfWallets(server.deps.wallets).walletFor(id).address, amount: 7, currency: 'USDC' }),
      );
    }
    expect(await drainDeposits(server)).toBe(3);
    for (const id of [first, middle, last]) expect(await ledgerBalance(server, id, 'USDC')).toBe(7_000_000n);
    const cursor = await server.deps.db.selectFrom('chain_scan_cursors').selectAll().executeTakeFirstOrThrow();
    expect(cursor.range_to).toBeNull();
  });
});

describe('custody', () => {
  it('books exactly what the deposit addresses and the hot wallet hold on chain, less the hot wallet’s own tokens', async () => {
    await drainDeposits(server);
    // The hot wallet's USDC here came from the faucet above (5, of which 3 went to Alice): 2 of its
    // own. Alice's 3 from the hot wallet and 1 from Bob's address sit uncredited at her address, so
    // on chain holds 3 more than the books (Bob's 1 only moved between deposit addresses).
    const usdc = await custodyOf(server, 'USDC', 2_000_000n);
    expect(usdc.onChain - usdc.booked).toBe(3_000_000n);
    const eurc = await custodyOf(server, 'EURC', 0n);
    expect(eurc.onChain).toBe(eurc.booked);
    expect(await onChainBalance(server, 'USDC', server.deps.wallets.hotWallet.address)).toBe(2_000_000n);
  });
});

describe.runIf(runsIf(process.env.DATABASE_URL, POSTGRES_ONLY))('one scanner at a time on PostgreSQL', () => {
  it('skips the round while another session holds the advisory lock, and scans once it is free', async () => {
    const holder = new pg.Client({ connectionString: (server.deps.database as unknown as { url: string }).url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1::bigint)', [DEPOSIT_WATCHER_LOCK_KEY.toString()]);
      const tx = await faucet(server, { address: alice.depositAddress, amount: 4, currency: 'EURC' });
      await mined(server, tx);
      const skipped = await watchDeposits(server.deps);
      expect(skipped).toEqual({ skipped: true, credited: 0, nextBlock: null });
      expect(await depositRows(tx)).toHaveLength(0);
      await holder.query('select pg_advisory_unlock($1::bigint)', [DEPOSIT_WATCHER_LOCK_KEY.toString()]);
      expect(await drainDeposits(server)).toBe(1);
    } finally {
      await holder.end();
    }
  });

  it('two processes (two connection pools) scanning at once credit each deposit once', async () => {
    const other = await openDatabase({ url: (server.deps.database as unknown as { url: string }).url, poolSize: 5 });
    try {
      const otherDeps = { ...server.deps, db: other.db, database: other };
      const tx = await faucet(server, { address: bob.depositAddress, amount: 9, currency: 'EURC' });
      await mined(server, tx);
      const before = await ledgerBalance(server, bobId, 'EURC');
      const rounds = await Promise.all(Array.from({ length: 8 }, (_, i) => watchDeposits(i % 2 ? otherDeps : server.deps)));
      expect(rounds.some((r) => r.skipped)).toBe(true);
      await drainDeposits(server);
      expect(await depositRows(tx)).toHaveLength(1);
      expect(await ledgerBalance(server, bobId, 'EURC')).toBe(before + 9_000_000n);
    } finally {
      await other.close();
    }
  });
});

describe('history', () => {
  it('lists credited deposits in GET /stablecoin/transfers, newest first among transfers, page by page', async () => {
    const sent = await server.request('POST', '/agent/transfer', { key: alice.key, body: { to: bob.handle, amount: 1, currency: 'USDC' } });
    expect(sent.status).toBe(200);
    const tx = await faucet(server, { address: alice.depositAddress, amount: 0.25, currency: 'EURC' });
    await mined(server, tx);
    await drainDeposits(server);

    const items: any[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const response = await server.request('GET', `/stablecoin/transfers?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: alice.key });
      expect(response.status).toBe(200);
      items.push(...response.body.transfers);
      cursor = response.body.nextCursor;
      if (cursor === null) break;
    }
    const deposits = await server.deps.db.selectFrom('chain_deposits').selectAll().where('account_id', '=', aliceId).execute();
    expect(items.filter((i) => i.type === 'deposit')).toHaveLength(deposits.length);
    expect(items.filter((i) => i.type === 'transfer')).toHaveLength(1);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    const times = items.map((i) => Date.parse(i.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The newest is the EURC deposit just credited.
    expect(items[0]).toEqual({
      id: expect.stringMatching(/^dep_/),
      type: 'deposit',
      direction: 'received',
      amount: 0.25,
      currency: 'EURC',
      status: 'complete',
      address: '0x0000000000000000000000000000000000000000',
      txHash: tx,
      counterpartyHandle: null,
      createdAt: expect.any(String),
    });
    // Only the caller's own deposits.
    const bobItems = await server.request('GET', '/stablecoin/transfers?limit=100', { key: bob.key });
    expect(bobItems.body.transfers.filter((i: any) => i.type === 'deposit' && i.txHash === tx)).toHaveLength(0);
  });
});

it('keeps its cursor in the database', async () => {
  const rows = await sql<{ name: string; next_block: bigint }>`select name, next_block from chain_scan_cursors`.execute(server.deps.db);
  expect(rows.rows).toHaveLength(1);
  const head = await chainClients(server).publicClient.getBlockNumber();
  expect(rows.rows[0]!.next_block).toBe(head + 1n);
});
