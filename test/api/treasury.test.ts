// Treasury (decision 0019), on the embedded chain: a withdrawal the user can afford is never refused
// for the hot wallet's sake (it waits and is sent once the tokens are there, and one waiting too long
// is reported), the hot wallet's gas is watched (readiness, metric, warning), a stuck transaction is
// replaced with a higher fee and the same nonce (and whichever of the two is mined is booked once),
// and the operator's view. The books-against-custody check equals the chain at every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Hash, Hex } from 'viem';
import { checkCustody } from '../../src/books/custody-check.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { feesOf } from '../helpers/ledger.js';
import { TOKENS, type Token } from '../../src/money/assets.js';
import { runSweeps } from '../../src/stablecoin/sweeps/sweep-service.js';
import { processWithdrawals } from '../../src/stablecoin/withdrawal-processing.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { chainClients, drainDeposits, faucet, mined, onChainBalance } from '../helpers/stablecoin-chain.js';
import { balanceOf } from '../helpers/stablecoin.js';
import { freshAddress, outboxRowsFor, settleWithdrawals, withdraw } from '../helpers/withdrawals.js';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
let server: TestServer;
/** What the hot wallet held before this file: not on the books. */
const baseline: Record<Token, bigint> = { USDC: 0n, EURC: 0n };

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN, CHAIN_REPLACE_AFTER_MS: '1000', WITHDRAWAL_WAIT_ALERT_MS: '60000' });
  for (const token of TOKENS) baseline[token] = await onChainBalance(server, token, server.deps.wallets.hotWallet.address);
});
afterAll(async () => {
  await server?.close();
});

/**
 * The custody check, run now: for each token the chain (less the baseline) equals the books plus the
 * withdrawals reserved whose transaction is not yet mined (the books count those gone already, while
 * the hot wallet still holds them: a waiting withdrawal is one).
 */
async function expectCustodyEqualsChain(): Promise<void> {
  const results = await checkCustody(server.deps, server.app.log);
  const { publicClient } = chainClients(server);
  for (const r of results) {
    const pending = await sql<{ net: string; tx_hash: string | null }>`
      select w.net::text as net, o.tx_hash from withdrawals w
        left join hot_wallet_outbox o on o.purpose = 'withdrawal' and o.reference_id = w.id
       where w.status = 'pending' and w.currency = ${r.token}`.execute(server.deps.db);
    let unmined = 0n;
    for (const w of pending.rows) {
      const receipt = w.tx_hash ? await publicClient.getTransactionReceipt({ hash: w.tx_hash as Hash }).catch(() => null) : null;
      if (!receipt || receipt.blockNumber > r.blockNumber) unmined += BigInt(w.net);
    }
    expect(r.ok).toBe(true);
    expect({ token: r.token, chain: r.chainMinor - baseline[r.token] }).toEqual({
      token: r.token,
      chain: r.booksMinor + unmined,
    });
  }
}

/** One round of the chain jobs a withdrawal and its covering sweep need, in the runner's order. */
async function chainRound(): Promise<void> {
  await server.deps.hotWalletOutbox.reconcile(50);
  await processWithdrawals(server.deps, 50, server.app.log);
  await runSweeps(server.deps, 20);
}

async function withdrawalRow(id: string) {
  return server.deps.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function depositAndCredit(address: string, amount: number, currency: Token): Promise<void> {
  await mined(server, await faucet(server, { address, amount, currency }));
  await drainDeposits(server);
}

describe('withdrawals wait for liquidity', () => {
  it('deposit then withdraw at once: accepted pending (no 503), sent once the sweep has moved the deposit', async () => {
    const user = await registerUser(server);
    await depositAndCredit(user.depositAddress, 300, 'USDC');
    await expectCustodyEqualsChain();
    // Credited, not yet swept: the hot wallet does not hold it.
    const to = freshAddress();
    const accepted = await withdraw(server, user, { amount: 250, currency: 'USDC', address: to });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'pending', txId: null });
    expect(await balanceOf(server, user)).toEqual({ USDC: '50.000000', EURC: '0.000000' });
    await expectCustodyEqualsChain();

    for (let i = 0; i < 10 && (await withdrawalRow(accepted.body.withdrawalId)).status === 'pending'; i++) {
      await chainRound();
      await expectCustodyEqualsChain();
    }
    const done = await withdrawalRow(accepted.body.withdrawalId);
    expect(done.status).toBe('complete');
    expect(await onChainBalance(server, 'USDC', to)).toBe(246_275_000n);
    expect(await outboxRowsFor(server, [done.id])).toHaveLength(1);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
    await expectCustodyEqualsChain();
  });

  it('an empty hot wallet queues withdrawals, oldest first; a faucet top-up sends what it covers, the rest waits', async () => {
    const user = await registerUser(server);
    await depositAndCredit(user.depositAddress, 30, 'EURC');
    // The deposit stays at the deposit address (no sweep here): the hot wallet holds no EURC.
    const hot = server.deps.wallets.hotWallet.address;
    expect(await onChainBalance(server, 'EURC', hot)).toBe(baseline.EURC);
    const targets = [freshAddress(), freshAddress(), freshAddress()];
    const ids: string[] = [];
    for (const address of targets) {
      const r = await withdraw(server, user, { amount: 10, currency: 'EURC', address });
      expect(r.status).toBe(200);
      expect(r.body.txId).toBeNull();
      ids.push(r.body.withdrawalId);
    }
    await server.deps.hotWalletOutbox.reconcile(50);
    await processWithdrawals(server.deps, 50);
    for (const id of ids) expect((await withdrawalRow(id)).status).toBe('pending');

    // The operator tops the hot wallet up with enough for two (9.851 each).
    await mined(server, await faucet(server, { address: hot, amount: 20, currency: 'EURC' }));
    baseline.EURC += 20_000_000n;
    for (let i = 0; i < 4; i++) {
      await server.deps.hotWalletOutbox.reconcile(50);
      await processWithdrawals(server.deps, 50);
    }
    expect((await Promise.all(ids.map(withdrawalRow))).map((w) => w.status)).toEqual(['complete', 'complete', 'pending']);
    expect(await onChainBalance(server, 'EURC', targets[2]!)).toBe(0n);
    await expectCustodyEqualsChain();

    // The deposit is swept at last: the third one goes too.
    for (let i = 0; i < 6; i++) await chainRound();
    expect((await withdrawalRow(ids[2]!)).status).toBe('complete');
    for (const address of targets) expect(await onChainBalance(server, 'EURC', address)).toBe(9_851_000n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    await expectCustodyEqualsChain();
  });

  it('sweeps of the token a withdrawal waits for go first', async () => {
    const [early, late] = [await registerUser(server), await registerUser(server)];
    // The earlier account's USDC deposit would be swept first by account order; a withdrawal waits for EURC.
    await depositAndCredit(early.depositAddress, 40, 'USDC');
    await depositAndCredit(late.depositAddress, 200, 'EURC');
    const r = await withdraw(server, late, { amount: 200, currency: 'EURC', address: freshAddress() });
    expect(r.body.txId).toBeNull();
    await runSweeps(server.deps, 1);
    const opened = await server.deps.db.selectFrom('chain_sweeps').select(['token', 'status']).where('status', '=', 'open').execute();
    expect(opened).toEqual([{ token: 'EURC', status: 'open' }]);
    for (let i = 0; i < 8 && (await withdrawalRow(r.body.withdrawalId)).status === 'pending'; i++) await chainRound();
    expect((await withdrawalRow(r.body.withdrawalId)).status).toBe('complete');
    await expectCustodyEqualsChain();
  });

  it('a withdrawal waiting longer than WITHDRAWAL_WAIT_ALERT_MS is reported once (error log) and counted by a metric', async () => {
    const user = await registerUser(server);
    await depositAndCredit(user.depositAddress, 100, 'EURC');
    const r = await withdraw(server, user, { amount: 100, currency: 'EURC', address: freshAddress() });
    expect(r.body.txId).toBeNull();
    const before = server.logs.length;
    await processWithdrawals(server.deps, 50, server.app.log);
    expect(server.logs.slice(before).join('')).not.toContain('waiting for the hot wallet longer');

    await server.deps.sandboxClock!.advance(120_000n);
    await processWithdrawals(server.deps, 50, server.app.log);
    await processWithdrawals(server.deps, 50, server.app.log);
    const reported = server.logs.slice(before).filter((line) => line.includes('waiting for the hot wallet longer'));
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(r.body.withdrawalId);
    expect(JSON.parse(reported[0]!).level).toBe(50);
    const metrics = (await server.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/peerpay_withdrawals_waiting_overdue\{token="EURC"\} 1/);
    expect(metrics).toMatch(/peerpay_withdrawals_waiting\{token="EURC"\} 1/);

    for (let i = 0; i < 6; i++) await chainRound();
    expect((await withdrawalRow(r.body.withdrawalId)).status).toBe('complete');
    expect((await server.request('GET', '/metrics')).text).toMatch(/peerpay_withdrawals_waiting_overdue\{token="EURC"\} 0/);
  });
});

describe('gas', () => {
  it('below HOT_WALLET_MIN_GAS_WEI: /health/ready fails its gas check, a warning is logged, the metric says low', async () => {
    const sandbox = server.deps.chain.sandboxChain!;
    const hot = server.deps.wallets.hotWallet.address;
    const full = await server.deps.chain.chain.getNativeBalance(hot);
    expect((await server.request('GET', '/health/ready')).status).toBe(200);
    await sandbox.setNativeBalance({ address: hot, wei: 10n ** 17n });
    try {
      const ready = await server.request('GET', '/health/ready');
      const problem = expectProblem(ready, 503, 'not_ready');
      expect(problem.checks.gas.status).toBe('fail');
      expect(problem.checks.gas.detail).toContain('HOT_WALLET_MIN_GAS_WEI');
      expect(problem.detail).toContain('gas');
      expect(problem.checks.chain.status).toBe('pass');
      const before = server.logs.length;
      await server.deps.treasury.watch(server.app.log);
      await server.deps.treasury.watch(server.app.log);
      const warned = server.logs.slice(before).filter((line) => line.includes('hot wallet gas is low'));
      expect(warned).toHaveLength(1);
      expect(JSON.parse(warned[0]!).level).toBe(40);
      const metrics = (await server.request('GET', '/metrics')).text;
      expect(metrics).toMatch(/peerpay_hot_wallet_gas_low 1/);
      expect(Number(/^peerpay_hot_wallet_gas_wei (\S+)$/m.exec(metrics)?.[1])).toBe(1e17);
    } finally {
      await sandbox.setNativeBalance({ address: hot, wei: full });
    }
    expect((await server.request('GET', '/health/ready')).status).toBe(200);
  });
});

describe('a stuck transaction', () => {
  async function rpc(method: string, params: unknown[]): Promise<unknown> {
    const { testClient } = chainClients(server);
    return testClient.request({ method: method as never, params: params as never });
  }

  async function stuckWithdrawal(): Promise<{ id: string; first: Hash; firstRaw: Hex; to: string; user: TestUser }> {
    const user = await registerUser(server);
    await depositAndCredit(user.depositAddress, 10, 'USDC');
    for (let i = 0; i < 3; i++) await chainRound();
    // From here on, blocks are mined only when the test says so.
    await chainClients(server).testClient.setAutomine(false);
    const to = freshAddress();
    const r = await withdraw(server, user, { amount: 10, currency: 'USDC', address: to });
    expect(r.body.txId).toMatch(/^0x[0-9a-f]{64}$/);
    const row = await server.deps.db
      .selectFrom('hot_wallet_outbox')
      .selectAll()
      .where('reference_id', '=', r.body.withdrawalId)
      .executeTakeFirstOrThrow();
    return { id: r.body.withdrawalId, first: r.body.txId, firstRaw: row.raw_tx as Hex, to, user };
  }

  it('dropped by the node: replaced after CHAIN_REPLACE_AFTER_MS with the same nonce and a higher fee, booked once', async () => {
    const { testClient, publicClient } = chainClients(server);
    try {
      const stuck = await stuckWithdrawal();
      await rpc('anvil_dropTransaction', [stuck.first]);
      await server.deps.hotWalletOutbox.reconcile(50); // not yet: within the wait
      expect(await outboxRowsFor(server, [stuck.id])).toMatchObject([{ tx_hash: stuck.first }]);
      await server.deps.sandboxClock!.advance(2_000n);
      await server.deps.hotWalletOutbox.reconcile(50);
      const [replaced] = await outboxRowsFor(server, [stuck.id]);
      expect(replaced!.tx_hash).not.toBe(stuck.first);
      const [a, b] = await Promise.all([
        publicClient.getTransaction({ hash: replaced!.tx_hash as Hash }),
        server.deps.db.selectFrom('hot_wallet_outbox_replaced').selectAll().where('tx_hash', '=', stuck.first).executeTakeFirstOrThrow(),
      ]);
      expect(b.raw_tx).toBe(stuck.firstRaw);
      const { parseTransaction } = await import('viem');
      const original = parseTransaction(stuck.firstRaw);
      expect(a.nonce).toBe(original.nonce);
      expect(a.maxFeePerGas! > original.maxFeePerGas!).toBe(true);
      expect(a.maxPriorityFeePerGas! > original.maxPriorityFeePerGas!).toBe(true);
      // The user's history names the transaction that can still be mined, not the dropped one.
      const history = (await server.request('GET', '/stablecoin/transfers', { key: stuck.user.key })).body.transfers;
      expect(history.find((t: { id: string }) => t.id === stuck.id)).toMatchObject({ status: 'pending', txHash: replaced!.tx_hash });
      await testClient.mine({ blocks: 1 });
      await settleWithdrawals(server);
      const done = await withdrawalRow(stuck.id);
      expect(done).toMatchObject({ status: 'complete', tx_hash: replaced!.tx_hash });
      expect(await onChainBalance(server, 'USDC', stuck.to)).toBe(9_851_000n);
      expect(await publicClient.getTransactionReceipt({ hash: stuck.first }).catch(() => null)).toBeNull();
      expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
      await expectCustodyEqualsChain();
    } finally {
      await testClient.setAutomine(true);
    }
  });

  it('priced below what blocks take (the base fee rose): replaced at the new price, mined, booked once', async () => {
    const { testClient, publicClient } = chainClients(server);
    try {
      const stuck = await stuckWithdrawal();
      const { parseTransaction } = await import('viem');
      const original = parseTransaction(stuck.firstRaw);
      await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(original.maxFeePerGas! * 4n).toString(16)}`]);
      await testClient.mine({ blocks: 1 });
      expect(await publicClient.getTransactionReceipt({ hash: stuck.first }).catch(() => null)).toBeNull();
      await server.deps.hotWalletOutbox.reconcile(50);
      expect(await outboxRowsFor(server, [stuck.id])).toMatchObject([{ tx_hash: stuck.first }]);
      await server.deps.sandboxClock!.advance(2_000n);
      await server.deps.hotWalletOutbox.reconcile(50);
      const [replaced] = await outboxRowsFor(server, [stuck.id]);
      expect(replaced!.tx_hash).not.toBe(stuck.first);
      const block = await publicClient.getBlock();
      const replacement = await publicClient.getTransaction({ hash: replaced!.tx_hash as Hash });
      expect(replacement.maxFeePerGas! > block.baseFeePerGas!).toBe(true);
      await testClient.mine({ blocks: 1 });
      await settleWithdrawals(server);
      expect(await withdrawalRow(stuck.id)).toMatchObject({ status: 'complete', tx_hash: replaced!.tx_hash });
      expect(await onChainBalance(server, 'USDC', stuck.to)).toBe(9_851_000n);
      expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
      await expectCustodyEqualsChain();
    } finally {
      await testClient.setAutomine(true);
    }
  });

  it('replaced, but the original is the one mined: the entry takes the original, and the withdrawal completes once', async () => {
    const { testClient } = chainClients(server);
    try {
      const stuck = await stuckWithdrawal();
      await server.deps.sandboxClock!.advance(2_000n);
      await server.deps.hotWalletOutbox.reconcile(50);
      const [replaced] = await outboxRowsFor(server, [stuck.id]);
      expect(replaced!.tx_hash).not.toBe(stuck.first);
      // The node loses the replacement and gets the original again (another node had kept it).
      await rpc('anvil_dropTransaction', [replaced!.tx_hash]);
      await rpc('eth_sendRawTransaction', [stuck.firstRaw]);
      await testClient.mine({ blocks: 1 });
      await settleWithdrawals(server);
      const done = await withdrawalRow(stuck.id);
      expect(done).toMatchObject({ status: 'complete', tx_hash: stuck.first });
      expect(await outboxRowsFor(server, [stuck.id])).toMatchObject([{ tx_hash: stuck.first, status: 'confirmed' }]);
      expect(await onChainBalance(server, 'USDC', stuck.to)).toBe(9_851_000n);
      const completions = await server.deps.db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('operation_id', '=', `withdrawal:${stuck.id}:complete`)
        .execute();
      expect(completions.length).toBeGreaterThan(0);
      expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
      await expectCustodyEqualsChain();
    } finally {
      await testClient.setAutomine(true);
    }
  });
});

describe('GET /admin/treasury', () => {
  it('answers the operator token only; without it, a user key or a wrong token, 404 as an unknown path (operator-surfaces.test.ts)', async () => {
    const user = await registerUser(server);
    expectProblem(await server.request('GET', '/admin/treasury'), 404, 'not_found');
    expectProblem(await server.request('GET', '/admin/treasury', { key: user.key }), 404, 'not_found');
    expectProblem(await server.request('GET', '/admin/treasury', { key: `${OPERATOR_TOKEN}x` }), 404, 'not_found');
    const view = await server.request('GET', '/admin/treasury', { key: OPERATOR_TOKEN });
    expect(view.status).toBe(200);
    expect(view.body.hotWallet).toBe(server.deps.wallets.hotWallet.address);
    expect(view.body.gas.low).toBe(false);
    const usdc = view.body.tokens.find((t: { token: string }) => t.token === 'USDC');
    const hot = await onChainBalance(server, 'USDC', server.deps.wallets.hotWallet.address);
    expect(usdc.hotWallet).toBe((Number(hot) / 1e6).toFixed(6));
    expect(usdc.custody.lastCheck.ok).toBe(true);
    expect(usdc.waitingWithdrawals).toEqual({ count: 0, overdue: 0, oldestAgeSeconds: null });
    expect(Number(usdc.feesEarned)).toBeGreaterThan(0);
    // Every shard of the fee account counts (ledger/ledger-accounts.ts), as feesOf sums them.
    expect(BigInt(String(usdc.feesEarned).replace('.', ''))).toBe(await feesOf(server.deps.db, 'USDC'));
    const metrics = (await server.request('GET', '/metrics')).text;
    expect(metrics).toContain(`peerpay_treasury_hot_wallet_minor{token="USDC"} ${hot}`);
  });

  it('is not in the OpenAPI document, and is 404 without OPERATOR_TOKEN', async () => {
    const doc = (await server.request('GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths)).not.toContain('/admin/treasury');
    const plain = await startTestServer();
    try {
      expect((await plain.request('GET', '/admin/treasury', { key: OPERATOR_TOKEN })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
