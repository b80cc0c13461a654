// The hot wallet's ceiling across restarts (decision 0019): above HOT_WALLET_MAX_USDC the excess goes
// to the cold address through the outbox, exactly once, whether the service stops after recording
// the transfer and before signing it, or after sending it and before its confirmation; below the
// floor the operator is warned. The custody check counts what went cold and equals the chain at
// every step. Each server runs on the same DATA_DIR (its chain) and the same database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, erc20Abi, http, type Address } from 'viem';
import { checkCustody } from '../../src/books/custody-check.js';
import type { ChainAdapter } from '../../src/adapters/chain/chain-adapter.js';
import { runSweeps } from '../../src/stablecoin/sweeps/sweep-service.js';
import { runColdTransfers } from '../../src/stablecoin/treasury/cold-transfers.js';
import { readTreasury } from '../../src/stablecoin/treasury/treasury-view.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { chainClients, drainDeposits, faucet, mined, onChainBalance, persistentTestDatabase } from '../helpers/stablecoin-chain.js';
import { freshAddress, settleWithdrawals, withdraw } from '../helpers/withdrawals.js';

const COLD = freshAddress();
const ENV = { HOT_WALLET_MAX_USDC: '50', HOT_WALLET_MIN_USDC: '45', COLD_WALLET_ADDRESS: COLD };

let dataDir: string;
let database: Awaited<ReturnType<typeof persistentTestDatabase>>;
let server: TestServer | null = null;
let alice: TestUser;
let baseline = 0n;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-cold-'));
  database = await persistentTestDatabase(dataDir);
});

afterAll(async () => {
  await server?.close();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function restart(env: Record<string, string> = ENV): Promise<TestServer> {
  await server?.close();
  server = await startTestServer(env, { dataDir, database: await database.open() });
  return server;
}

/** USDC on the chain's side of the custody check, less the baseline, equals the books; returns the check. */
async function expectCustodyEqualsChain(s: TestServer) {
  const usdc = (await checkCustody(s.deps, s.app.log)).find((r) => r.token === 'USDC')!;
  expect(usdc.ok).toBe(true);
  expect(usdc.chainMinor - baseline).toBe(usdc.booksMinor);
  return usdc;
}

/** The check finds the books promising exactly `minor` more USDC than the chain's side holds. */
async function expectShortfall(s: TestServer, minor: bigint) {
  const usdc = (await checkCustody(s.deps, s.app.log)).find((r) => r.token === 'USDC')!;
  expect(usdc.ok).toBe(false);
  expect(usdc.booksMinor - (usdc.chainMinor - baseline)).toBe(minor);
  return usdc;
}

async function coldRows(s: TestServer) {
  return s.deps.db.selectFrom('cold_transfers').select(['token', 'amount', 'status', 'to_address']).orderBy('created_at').execute();
}

describe('the excess above HOT_WALLET_MAX_USDC goes cold, once, across restarts', () => {
  it('first run: 80 USDC deposited and swept; the transfer of the 30 over the ceiling is recorded, then the service stops before it is signed', async () => {
    const s = await restart();
    baseline = await onChainBalance(s, 'USDC', s.deps.wallets.hotWallet.address);
    alice = await registerUser(s);
    await mined(s, await faucet(s, { address: alice.depositAddress, amount: 80, currency: 'USDC' }));
    await drainDeposits(s);
    await expectCustodyEqualsChain(s);
    for (let i = 0; i < 3; i++) {
      await runSweeps(s.deps, 20);
      await s.deps.hotWalletOutbox.reconcile(50);
    }
    expect(await onChainBalance(s, 'USDC', s.deps.wallets.hotWallet.address)).toBe(baseline + 80_000_000n);
    await expectCustodyEqualsChain(s);

    // The node fails the signing (as if the process died between recording and signing).
    const adapter = s.deps.chain.chain as { -readonly [K in keyof ChainAdapter]: ChainAdapter[K] };
    const sign = adapter.signTokenTransfer;
    adapter.signTokenTransfer = async () => {
      throw new Error('the node went away');
    };
    try {
      await expect(runColdTransfers(s.deps)).rejects.toThrow('the node went away');
    } finally {
      adapter.signTokenTransfer = sign;
    }
    expect(await coldRows(s)).toEqual([{ token: 'USDC', amount: 30_000_000n + baseline, status: 'open', to_address: COLD }]);
    expect(await onChainBalance(s, 'USDC', COLD)).toBe(0n);
    await expectCustodyEqualsChain(s);
  });

  it('second run: the recorded transfer is sent (its amount, not a new one); the service stops before the outbox confirms it', async () => {
    const s = await restart();
    expect(await runColdTransfers(s.deps)).toBe(1);
    expect(await runColdTransfers(s.deps)).toBe(0);
    expect(await onChainBalance(s, 'USDC', COLD)).toBe(30_000_000n + baseline);
    expect(await onChainBalance(s, 'USDC', s.deps.wallets.hotWallet.address)).toBe(50_000_000n);
    const outbox = await s.deps.db.selectFrom('hot_wallet_outbox').select(['status']).where('purpose', '=', 'cold').execute();
    expect(outbox).toHaveLength(1);
    await expectCustodyEqualsChain(s);
  });

  it('third run: confirmed, and nothing more goes cold; the chain equals the books throughout', async () => {
    const s = await restart();
    for (let i = 0; i < 3; i++) {
      await s.deps.hotWalletOutbox.reconcile(50);
      await runColdTransfers(s.deps);
    }
    expect(await coldRows(s)).toEqual([{ token: 'USDC', amount: 30_000_000n + baseline, status: 'confirmed', to_address: COLD }]);
    expect(await onChainBalance(s, 'USDC', COLD)).toBe(30_000_000n + baseline);
    const check = await expectCustodyEqualsChain(s);
    expect(check.booksMinor).toBe(80_000_000n);
  });

  it('below HOT_WALLET_MIN_USDC after a withdrawal: the operator is warned once, and the metric says so', async () => {
    const s = server!;
    const before = s.logs.length;
    await s.deps.treasury.watch(s.app.log);
    expect(s.logs.slice(before).join('')).not.toContain('below HOT_WALLET_MIN_USDC');
    const r = await withdraw(s, alice, { amount: 10, currency: 'USDC', address: freshAddress() });
    expect(r.status).toBe(200);
    await settleWithdrawals(s);
    await s.deps.treasury.watch(s.app.log);
    await s.deps.treasury.watch(s.app.log);
    expect(s.logs.slice(before).filter((line) => line.includes('below HOT_WALLET_MIN_USDC'))).toHaveLength(1);
    expect((await s.request('GET', '/metrics')).text).toMatch(/^peerpay_treasury_below_floor\{token="USDC"\} 1$/m);
    // Nothing goes cold below the ceiling.
    await runColdTransfers(s.deps);
    expect(await coldRows(s)).toHaveLength(1);
    await expectCustodyEqualsChain(s);
  });
});

describe('tokens the operator moves at the cold address (decision 0024)', () => {
  /** Sends `amount` USDC from `from` (impersonated on the embedded chain) to `to`. */
  async function sendAs(s: TestServer, from: Address, to: Address, amount: bigint): Promise<void> {
    const { testClient, publicClient } = chainClients(s);
    const wallet = createWalletClient({ chain: publicClient.chain, transport: http(s.deps.chain.rpcUrl) });
    await testClient.setBalance({ address: from, value: 10n ** 18n });
    await testClient.impersonateAccount({ address: from });
    try {
      const hash = await wallet.writeContract({
        account: from,
        address: s.deps.chain.tokens.USDC,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, amount],
      });
      await publicClient.waitForTransactionReceipt({ hash });
    } finally {
      await testClient.stopImpersonatingAccount({ address: from });
    }
  }

  it('the operator’s own tokens at the cold address, beyond what peerpay sent it, are not counted', async () => {
    const s = server!;
    await mined(s, await faucet(s, { address: COLD, amount: 7, currency: 'USDC' }));
    expect(await onChainBalance(s, 'USDC', COLD)).toBe(37_000_000n + baseline);
    await expectCustodyEqualsChain(s);
    // The operator takes their 7 back out: what is left is exactly what peerpay sent.
    await sendAs(s, COLD, freshAddress(), 7_000_000n);
    await expectCustodyEqualsChain(s);
  });

  it('5 USDC sent back from the cold address to the hot wallet count once: the chain still equals the books', async () => {
    const s = server!;
    const hot = s.deps.wallets.hotWallet.address;
    const hotBefore = await onChainBalance(s, 'USDC', hot);
    await sendAs(s, COLD, hot, 5_000_000n);
    expect(await onChainBalance(s, 'USDC', hot)).toBe(hotBefore + 5_000_000n);
    expect(await onChainBalance(s, 'USDC', COLD)).toBe(25_000_000n + baseline);
    await expectCustodyEqualsChain(s);
  });

  /** Takes 5 USDC from the hot wallet: the check reports a shortfall of exactly 5; put back, it is ok again. */
  async function expectHotWalletLossReported(s: TestServer): Promise<void> {
    const hot = s.deps.wallets.hotWallet.address;
    const elsewhere = freshAddress();
    await sendAs(s, hot, elsewhere, 5_000_000n);
    await expectShortfall(s, 5_000_000n);
    await sendAs(s, elsewhere, hot, 5_000_000n);
    await expectCustodyEqualsChain(s);
  }

  it('5 USDC then gone from the hot wallet are a shortfall of 5, which the returned tokens no longer hide', async () => {
    await expectHotWalletLossReported(server!);
  });

  it('the operator then tops the cold address up with 5 of their own: the 5 that came back still count once, and a shortfall behind them shows', async () => {
    const s = server!;
    await mined(s, await faucet(s, { address: COLD, amount: 5, currency: 'USDC' }));
    expect(await onChainBalance(s, 'USDC', COLD)).toBe(30_000_000n + baseline);
    await expectCustodyEqualsChain(s);
    await expectHotWalletLossReported(s);
  });

  it('custody the operator sends from the cold address to a deposit address is credited to its owner as a deposit: a shortfall of that amount, which the check reports', async () => {
    const s = server!;
    const booksBefore = (await expectCustodyEqualsChain(s)).booksMinor;
    await sendAs(s, COLD, alice.depositAddress as Address, 3_000_000n);
    await drainDeposits(s);
    expect((await expectShortfall(s, 3_000_000n)).booksMinor).toBe(booksBefore + 3_000_000n);
    // The operator covers it with 3 of their own at the hot wallet: the check is ok again.
    await mined(s, await faucet(s, { address: s.deps.wallets.hotWallet.address, amount: 3, currency: 'USDC' }));
    await expectCustodyEqualsChain(s);
  });

  it('a restart keeps what the scan found: everything the cold address sent, each transfer once, with its place on the chain', async () => {
    const s = await restart();
    await expectCustodyEqualsChain(s);
    const stored = await s.deps.db.selectFrom('cold_outflows').select(['to_address', 'amount', 'token']).orderBy('block_number').execute();
    expect(stored).toEqual([
      { to_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), amount: '7000000', token: 'USDC' },
      { to_address: s.deps.wallets.hotWallet.address, amount: '5000000', token: 'USDC' },
      { to_address: alice.depositAddress, amount: '3000000', token: 'USDC' },
    ]);
    const usdcView = (await readTreasury(s.deps)).tokens.find((t) => t.token === 'USDC')!;
    expect(usdcView).toMatchObject({ coldSentMinor: 30_000_000n + baseline, coldReturnedMinor: 8_000_000n });
    const cursor = await s.deps.db
      .selectFrom('chain_scan_cursors')
      .select('next_block')
      .where('name', '=', 'cold-outflows')
      .executeTakeFirstOrThrow();
    expect(BigInt(cursor.next_block)).toBe((await s.deps.chain.chain.getBlockNumber()) + 1n);
  });

  it('blocks not yet confirmed are read at each check and not stored', async () => {
    const s = server!;
    await sendAs(s, COLD, s.deps.wallets.hotWallet.address, 1_000_000n);
    const unconfirmed = { ...s.deps, config: { ...s.deps.config, chainConfirmations: 1000 } };
    const usdc = (await checkCustody(unconfirmed, s.app.log)).find((r) => r.token === 'USDC')!;
    expect(usdc.chainMinor - baseline).toBe(usdc.booksMinor);
    expect(await s.deps.db.selectFrom('cold_outflows').select('amount').execute()).toHaveLength(3);
    await expectCustodyEqualsChain(s);
    expect(await s.deps.db.selectFrom('cold_outflows').select('amount').execute()).toHaveLength(4);
  });

  it('the operator moves everything to a new cold address and configures it: what was peerpay’s keeps counting, once, and their own tokens still do not', async () => {
    const newCold = freshAddress();
    const s = await restart({ ...ENV, COLD_WALLET_ADDRESS: newCold });
    const before = await expectCustodyEqualsChain(s);
    const all = await onChainBalance(s, 'USDC', COLD);
    // 21 of peerpay's (30 sent; 5, 3 and 1 back) and the operator's 5.
    expect(all).toBe(26_000_000n + baseline);
    await sendAs(s, COLD, newCold, all);
    expect((await expectCustodyEqualsChain(s)).chainMinor).toBe(before.chainMinor);
    // Some of it straight back to the hot wallet from the new address: still once.
    await sendAs(s, newCold, s.deps.wallets.hotWallet.address, 2_000_000n);
    expect((await expectCustodyEqualsChain(s)).chainMinor).toBe(before.chainMinor);
    await expectHotWalletLossReported(s);
  });

  it('a scan further behind than one check reads fails that check, saying so, and the next check goes on from there', async () => {
    const s = server!;
    const { testClient } = chainClients(s);
    await testClient.mine({ blocks: 150 });
    const narrow = { ...s.deps, config: { ...s.deps.config, chainScanBlocks: 1 } };
    await expect(checkCustody(narrow, s.app.log)).rejects.toThrow(/cold addresses sent is at block \d+, \d+ blocks behind/);
    const usdc = (await checkCustody(narrow, s.app.log)).find((r) => r.token === 'USDC')!;
    expect(usdc.chainMinor - baseline).toBe(usdc.booksMinor);
  });

  it('a block the scan stored that the chain no longer has (a reorganisation deeper than the confirmations) halts the check', async () => {
    const s = server!;
    const { testClient } = chainClients(s);
    const snapshot = await testClient.snapshot();
    await testClient.mine({ blocks: 3 });
    await expectCustodyEqualsChain(s);
    await testClient.revert({ id: snapshot });
    await testClient.increaseTime({ seconds: 600 });
    await testClient.mine({ blocks: 5 });
    await expect(checkCustody(s.deps, s.app.log)).rejects.toThrow(/CUSTODY CHECK HALTED: block \d+ had hash 0x[0-9a-f]{64}/);
  });
});
