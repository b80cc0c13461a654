// A withdrawal is sent exactly once: idempotent retries, concurrent withdrawals from one balance
// (never overdrawn, each sent once, distinct consecutive nonces), a hot wallet short of tokens (the
// withdrawal waits), a contract that refuses or a transfer that reverts (gross refunded), and crashes between reserving, signing and broadcasting. Checked on chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ChainRevertError, type ChainAdapter } from '../../src/adapters/chain/chain-adapter.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { newId } from '../../src/platform/ids.js';
import { processWithdrawals } from '../../src/stablecoin/withdrawal-processing.js';
import { reserveWithdrawal } from '../../src/stablecoin/withdrawal-ledger.js';
import { insertWithdrawal } from '../../src/stablecoin/withdrawals-repository.js';
import { accountIdOf, balanceOf, fund } from '../helpers/stablecoin.js';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  freshAddress,
  fundHotWallet,
  onChainBalance,
  outboxRowsFor,
  settleWithdrawals,
  withdraw,
  withdrawalSnapshot,
} from '../helpers/withdrawals.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // USDC only: EURC stays short in the hot wallet until a test funds it.
  await fundHotWallet(server, 1_000_000_000n, 'USDC');
});
afterAll(async () => {
  await server?.close();
});

async function historyStatus(user: { key: string }, withdrawalId: string): Promise<string | undefined> {
  const response = await server.request('GET', '/stablecoin/transfers?limit=100', { key: user.key });
  return response.body.transfers.find((t: { id: string }) => t.id === withdrawalId)?.status;
}

/** Makes the node refuse every broadcast until the returned function is called: as if the process died right after recording. */
function holdBroadcasts(): () => void {
  const adapter = server.deps.chain.chain as { -readonly [K in keyof ChainAdapter]: ChainAdapter[K] };
  const original = adapter.broadcast;
  adapter.broadcast = async () => {
    throw new Error('broadcast held by the test');
  };
  return () => {
    adapter.broadcast = original;
  };
}

describe('idempotency', () => {
  it('a replay answers the same withdrawal and the chain sees one transfer', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const to = freshAddress();
    const headers = { 'idempotency-key': 'withdraw-once' };
    const first = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to }, headers);
    const second = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to }, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    // A different request under the same key is refused.
    expectProblem(await withdraw(server, user, { amount: 4, currency: 'USDC', address: to }, headers), 422, 'idempotency_key_reused');
    await settleWithdrawals(server);
    expect(await outboxRowsFor(server, [first.body.withdrawalId])).toHaveLength(1);
    expect(await onChainBalance(server, to)).toBe(4_925_500n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
  });

  it('with the stored answer lost, the key still finds the same withdrawal (natural key): nothing signed again', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const to = freshAddress();
    const headers = { 'idempotency-key': 'natural-key' };
    const first = await withdraw(server, user, { amount: 3, currency: 'USDC', address: to }, headers);
    expect(first.status).toBe(200);
    await sql`delete from idempotency_keys where key = 'natural-key'`.execute(server.deps.db);
    // Without the address: the one recorded is kept (the key names that withdrawal).
    const again = await withdraw(server, user, { amount: 3, currency: 'USDC', address: to }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body).toMatchObject({ withdrawalId: first.body.withdrawalId, txId: first.body.txId });
    await settleWithdrawals(server);
    expect(await outboxRowsFor(server, [first.body.withdrawalId])).toHaveLength(1);
    expect(await onChainBalance(server, to)).toBe(2_955_300n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '7.000000', EURC: '0.000000' });
  });

  it('the same key sent many times at once makes one withdrawal', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const to = freshAddress();
    const headers = { 'idempotency-key': 'burst' };
    const responses = await Promise.all(
      [...Array(8)].map(() => withdraw(server, user, { amount: 2, currency: 'USDC', address: to }, headers)),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((r) => r.status !== 200)) expectProblem(r, 409, 'idempotency_key_in_use');
    expect(new Set(ok.map((r) => r.body.withdrawalId)).size).toBe(1);
    await settleWithdrawals(server);
    expect(await onChainBalance(server, to)).toBe(1_970_200n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '8.000000', EURC: '0.000000' });
  });
});

describe('concurrency', () => {
  it('25 concurrent withdrawals of 1 USDC from 10: exactly 10 succeed, each sent once with distinct consecutive nonces', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const addresses = [...Array(25)].map(() => freshAddress());
    const responses = await Promise.all(addresses.map((address) => withdraw(server, user, { amount: 1, currency: 'USDC', address })));
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    for (const r of responses.filter((r) => r.status !== 200)) expectProblem(r, 400, 'insufficient_balance');
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });

    const ids = ok.map((r) => r.body.withdrawalId as string);
    const rows = await outboxRowsFor(server, ids);
    expect(rows).toHaveLength(10);
    const nonces = rows.map((r) => Number(r.nonce));
    expect(nonces).toEqual([...Array(10).keys()].map((i) => nonces[0]! + i));
    expect(new Set(rows.map((r) => r.tx_hash))).toEqual(new Set(ok.map((r) => r.body.txId)));

    await settleWithdrawals(server);
    for (const [i, r] of responses.entries()) expect(await onChainBalance(server, addresses[i]!)).toBe(r.status === 200 ? 985_100n : 0n);
    for (const id of ids) expect(await historyStatus(user, id)).toBe('complete');
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});

describe('when the chain refuses or reverts', () => {
  it('the hot wallet short on chain: accepted pending with no transaction, the gross reserved; sent, once, after a top-up', async () => {
    const user = await registerUser(server);
    await fund(server, user, 5_000_000n, 'EURC');
    const to = freshAddress();
    const headers = { 'idempotency-key': 'hot-wallet-short' };
    const outboxBefore = await sql<{ n: string }>`select count(*)::text as n from hot_wallet_outbox`.execute(server.deps.db);
    const accepted = await withdraw(server, user, { amount: 5, currency: 'EURC', address: to }, headers);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'pending', txId: null, gross: 5, net: 4.9255, currency: 'EURC' });
    expect(accepted.body.note).toContain('as soon as');
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect((await sql<{ n: string }>`select count(*)::text as n from hot_wallet_outbox`.execute(server.deps.db)).rows).toEqual(
      outboxBefore.rows,
    );
    // The same key answers the same waiting withdrawal; the jobs leave it waiting while the wallet is short.
    const replay = await withdraw(server, user, { amount: 5, currency: 'EURC', address: to }, headers);
    expect(replay.body).toMatchObject({ withdrawalId: accepted.body.withdrawalId, txId: null, status: 'pending' });
    await processWithdrawals(server.deps, 50);
    expect(await historyStatus(user, accepted.body.withdrawalId)).toBe('pending');
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);

    await fundHotWallet(server, 5_000_000n, 'EURC');
    await settleWithdrawals(server);
    expect(await onChainBalance(server, to, 'EURC')).toBe(4_925_500n);
    expect(await historyStatus(user, accepted.body.withdrawalId)).toBe('complete');
    expect(await outboxRowsFor(server, [accepted.body.withdrawalId])).toHaveLength(1);
    const history = await server.request('GET', '/stablecoin/transfers?limit=100', { key: user.key });
    const sent = history.body.transfers.find((t: { id: string }) => t.id === accepted.body.withdrawalId);
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
  });

  it('the token contract refuses the transfer with the tokens there: 503 withdrawal_unavailable, nothing sent, refunded', async () => {
    const user = await registerUser(server);
    await fund(server, user, 5_000_000n);
    const to = freshAddress();
    const headers = { 'idempotency-key': 'contract-refuses' };
    const adapter = server.deps.chain.chain as { -readonly [K in keyof ChainAdapter]: ChainAdapter[K] };
    const original = adapter.signTokenTransfer;
    adapter.signTokenTransfer = async () => {
      throw new ChainRevertError('transfer on the token would revert: Paused', 'Paused');
    };
    let refused;
    try {
      refused = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to }, headers);
    } finally {
      adapter.signTokenTransfer = original;
    }
    const problem = expectProblem(refused, 503, 'withdrawal_unavailable');
    expect(problem.detail).toContain('Nothing was sent');
    expect(problem.detail).toMatch(/USDC contract refused the transfer: Paused/);
    const logged = server.logs.filter((line) => line.includes('withdrawal could not be sent'));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('')).not.toContain(server.deps.chain.rpcUrl);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
    const failed = await server.deps.db
      .selectFrom('withdrawals')
      .selectAll()
      .where('account_id', '=', await accountIdOf(server, user))
      .execute();
    expect(failed).toMatchObject([{ status: 'failed', failure_code: 'not_sent', idempotency_key: null, tx_hash: null }]);
    expect(await historyStatus(user, failed[0]!.id)).toBe('failed');
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
    const retried = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to }, headers);
    expect(retried.status).toBe(200);
    await settleWithdrawals(server);
    expect(await onChainBalance(server, to)).toBe(4_925_500n);
  });

  it('a transaction that reverts on chain fails the withdrawal and refunds the gross', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n, 'EURC');
    const hot = server.deps.wallets.hotWallet.address;
    // The hot wallet holds enough EURC for one of two withdrawals, but its balance reads higher (as
    // if tokens left it between the check and the mining), and both are signed while neither is on
    // chain (broadcasts held), so both pass simulation; once sent, the second one reverts.
    await fundHotWallet(server, 6_000_000n - (await onChainBalance(server, hot, 'EURC')), 'EURC');
    const [a, b] = [freshAddress(), freshAddress()];
    const release = holdBroadcasts();
    const adapter = server.deps.chain.chain as { -readonly [K in keyof ChainAdapter]: ChainAdapter[K] };
    const readBalance = adapter.getTokenBalance;
    adapter.getTokenBalance = async (input) => (await readBalance(input)) + 100_000_000n;
    let first, second;
    try {
      first = await withdraw(server, user, { amount: 5, currency: 'EURC', address: a });
      second = await withdraw(server, user, { amount: 5, currency: 'EURC', address: b });
    } finally {
      adapter.getTokenBalance = readBalance;
      release();
    }
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    await server.deps.sandboxClock!.advance(10_000n);
    await settleWithdrawals(server);

    expect(await historyStatus(user, first.body.withdrawalId)).toBe('complete');
    expect(await historyStatus(user, second.body.withdrawalId)).toBe('failed');
    expect((await server.deps.chain.chain.getTransactionOutcome(second.body.txId))?.status).toBe('reverted');
    expect(await onChainBalance(server, a, 'EURC')).toBe(4_925_500n);
    expect(await onChainBalance(server, b, 'EURC')).toBe(0n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '5.000000' });
    const failed = await server.deps.db
      .selectFrom('withdrawals')
      .select(['status', 'failure_code', 'tx_hash'])
      .where('id', '=', second.body.withdrawalId)
      .executeTakeFirstOrThrow();
    expect(failed).toEqual({ status: 'failed', failure_code: 'reverted', tx_hash: second.body.txId });
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});

describe('crash safety', () => {
  it('recorded as signed but never broadcast: the job sends that very transaction, once', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const to = freshAddress();
    const release = holdBroadcasts();
    let response;
    try {
      response = await withdraw(server, user, { amount: 5, currency: 'USDC', address: to });
    } finally {
      release();
    }
    expect(response.status).toBe(200);
    const [entry] = await outboxRowsFor(server, [response.body.withdrawalId]);
    expect(entry).toMatchObject({ status: 'signed', tx_hash: response.body.txId });
    expect(await server.deps.chain.chain.getTransactionOutcome(response.body.txId)).toBeNull();

    await server.deps.sandboxClock!.advance(10_000n);
    await settleWithdrawals(server);
    expect(await outboxRowsFor(server, [response.body.withdrawalId])).toMatchObject([
      { status: 'confirmed', tx_hash: response.body.txId, nonce: entry!.nonce },
    ]);
    expect(await historyStatus(user, response.body.withdrawalId)).toBe('complete');
    expect(await onChainBalance(server, to)).toBe(4_925_500n);
    // Later rounds send nothing more.
    await settleWithdrawals(server);
    expect(await onChainBalance(server, to)).toBe(4_925_500n);
  });

  it('reserved but never sent (the request died): the job sends it after a grace period', async () => {
    const user = await registerUser(server);
    await fund(server, user, 10_000_000n);
    const accountId = await accountIdOf(server, user);
    const to = freshAddress();
    const id = newId('wd');
    await server.deps.db.transaction().execute(async (trx) => {
      const w = await insertWithdrawal(trx, {
        id,
        accountId,
        currency: 'USDC',
        address: to,
        grossMinor: 5_000_000n,
        feeMinor: 74_500n,
        netMinor: 4_925_500n,
        status: 'pending',
        failureCode: null,
        txHash: null,
        idempotencyKey: null,
        createdAt: new Date(server.deps.clock.now().getTime() - 10 * 60 * 1000),
        completedAt: null,
      });
      await reserveWithdrawal(trx, w!);
    });
    const before = await withdrawalSnapshot(server);
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
    expect(await processWithdrawals(server.deps, 50)).toBe(1);
    expect(await withdrawalSnapshot(server)).not.toBe(before);
    await settleWithdrawals(server);
    expect(await historyStatus(user, id)).toBe('complete');
    expect(await onChainBalance(server, to)).toBe(4_925_500n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});
