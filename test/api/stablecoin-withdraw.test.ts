// POST /stablecoin/withdraw against a running service with its embedded chain, checked on chain:
// the fee, the amount that arrives at the address, the ledger, completion, the default address,
// and how long a withdrawal takes from request to `complete` with the job runner's chain tick.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { startJobs } from '../../src/jobs/job-runner.js';
import { balanceOf, fund } from '../helpers/stablecoin.js';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { freshAddress, fundHotWallet, onChainBalance, settleWithdrawals, withdraw, withdrawalSnapshot } from '../helpers/withdrawals.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await fundHotWallet(server, 1_000_000_000n, 'USDC');
  await fundHotWallet(server, 1_000_000_000n, 'EURC');
});
afterAll(async () => {
  await server?.close();
});

async function historyItem(user: { key: string }, withdrawalId: string) {
  const response = await server.request('GET', '/stablecoin/transfers?limit=100', { key: user.key });
  expect(response.status).toBe(200);
  return response.body.transfers.find((t: { id: string }) => t.id === withdrawalId);
}

describe('a withdrawal, end to end', () => {
  it('5 USDC to a fresh address: fee 0.0745, net 4.9255 arrives on chain, complete in history', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const hot = server.deps.wallets.hotWallet.address;
    const hotBefore = await onChainBalance(server, hot);
    const to = freshAddress();

    const response = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ address: to, gross: 5, fee: 0.0745, net: 4.9255, currency: 'USDC', status: 'pending' });
    expect(response.body.txId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(response.body.withdrawalId).toMatch(/^wd_/);
    expect(response.body.note).toContain('4.9255 USDC');
    // The whole gross is held at once.
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
    expect((await historyItem(user, response.body.withdrawalId))?.status).toBe('pending');

    await settleWithdrawals(server);
    expect(await onChainBalance(server, to)).toBe(4_925_500n);
    expect(await onChainBalance(server, hot)).toBe(hotBefore - 4_925_500n);
    const receipt = await server.deps.chain.chain.getTransactionOutcome(response.body.txId);
    expect(receipt?.status).toBe('success');
    expect(await historyItem(user, response.body.withdrawalId)).toMatchObject({
      type: 'withdrawal',
      direction: 'sent',
      status: 'complete',
      amount: 5,
      fee: 0.0745,
      recipientAmount: 4.9255,
      currency: 'USDC',
      address: to,
      txHash: response.body.txId,
      counterpartyHandle: null,
    });
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
    // The fee went to one of the fees account's shards: the sum over them.
    const shards = await server.deps.db
      .selectFrom('ledger_accounts')
      .select(['balance', 'pending_credits'])
      .where('kind', '=', 'fees')
      .where('asset', '=', 'USDC')
      .execute();
    const sum = (pick: (row: (typeof shards)[number]) => bigint) => shards.reduce((total, row) => total + pick(row), 0n);
    expect({ balance: sum((r) => r.balance), pending_credits: sum((r) => r.pending_credits) }).toEqual({
      balance: 74_500n,
      pending_credits: 0n,
    });
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('EURC works the same way', async () => {
    const user = await registerUser(server);
    await fund(server, user, 3_000_000n, 'EURC');
    const to = freshAddress();
    const response = await withdraw(server, user, { amount: 2.5, currency: 'eurc', address: to.toLowerCase() });
    expect(response.status).toBe(200);
    // 1.49% of 2.5 = 0.03725, half-up at 6 decimals.
    expect(response.body).toMatchObject({ address: to, gross: 2.5, fee: 0.03725, net: 2.46275, currency: 'EURC' });
    await settleWithdrawals(server);
    expect(await onChainBalance(server, to, 'EURC')).toBe(2_462_750n);
    expect(await onChainBalance(server, to, 'USDC')).toBe(0n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.500000' });
  });

  it('goes from request to complete within a few seconds with the job runner’s chain tick (timed)', async () => {
    const user = await registerUser(server);
    await fund(server, user, 5_000_000n);
    const to = freshAddress();
    const jobs = startJobs(server.deps, server.app.log);
    try {
      const started = performance.now();
      const response = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to });
      expect(response.status).toBe(200);
      const answeredMs = performance.now() - started;
      let status = 'pending';
      while (status === 'pending' && performance.now() - started < 20_000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        status = (await historyItem(user, response.body.withdrawalId))?.status;
      }
      const completeMs = performance.now() - started;
      expect(status).toBe('complete');
      // CHAIN_POLL_INTERVAL_MS is 1000 by default: the next tick confirms and completes (about 1 s).
      // The bound is liveness, not performance (the figure is logged): a few ticks on a loaded machine.
      expect(completeMs).toBeLessThan(15 * server.deps.config.chainPollIntervalMs);
      console.log(
        `withdrawal timing: answered after ${answeredMs.toFixed(0)} ms, complete after ${completeMs.toFixed(0)} ms (chain tick ${server.deps.config.chainPollIntervalMs} ms)`,
      );
      expect(await onChainBalance(server, to)).toBe(4_925_500n);
    } finally {
      await jobs.stop();
    }
  });
});

describe('the default withdrawal address', () => {
  it('with none saved, a withdrawal without address is 400 no_default_address and changes nothing', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const before = await withdrawalSnapshot(server);
    expectProblem(await withdraw(server, user, { amount: 5, currency: 'USDC' }), 400, 'no_default_address');
    expect(await withdrawalSnapshot(server)).toBe(before);
  });

  it('the first completed withdrawal’s address becomes the default, and later ones without address go there', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const first = freshAddress();
    const response = await withdraw(server, user, { amount: 1, currency: 'USDC', address: first.toLowerCase() });
    expect(response.status).toBe(200);
    // Saved once the withdrawal succeeded, not when it was merely asked for.
    expect((await server.request('GET', '/stablecoin/withdrawal-address', { key: user.key })).body).toEqual({ address: null });
    await settleWithdrawals(server);
    expect((await server.request('GET', '/stablecoin/withdrawal-address', { key: user.key })).body).toEqual({ address: first });

    // A second withdrawal to another address does not replace it.
    const other = freshAddress();
    expect((await withdraw(server, user, { amount: 1, currency: 'USDC', address: other })).status).toBe(200);
    await settleWithdrawals(server);
    expect((await server.request('GET', '/stablecoin/withdrawal-address', { key: user.key })).body).toEqual({ address: first });

    const byDefault = await withdraw(server, user, { amount: 2, currency: 'USDC' });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toMatchObject({ address: first, gross: 2, fee: 0.0298, net: 1.9702 });
    await settleWithdrawals(server);
    expect(await onChainBalance(server, first)).toBe(985_100n + 1_970_200n);
    expect(await onChainBalance(server, other)).toBe(985_100n);
  });

  it('an address saved with PUT is used, and is not replaced by a withdrawal elsewhere', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const saved = freshAddress();
    expect((await server.request('PUT', '/stablecoin/withdrawal-address', { key: user.key, body: { address: saved } })).status).toBe(200);
    const elsewhere = freshAddress();
    expect((await withdraw(server, user, { amount: 1, currency: 'USDC', address: elsewhere })).status).toBe(200);
    await settleWithdrawals(server);
    const response = await withdraw(server, user, { amount: 1, currency: 'USDC' });
    expect(response.body.address).toBe(saved);
    await settleWithdrawals(server);
    expect(await onChainBalance(server, saved)).toBe(985_100n);
    expect(await onChainBalance(server, elsewhere)).toBe(985_100n);
  });
});
