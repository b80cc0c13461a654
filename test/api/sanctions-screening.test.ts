// Sanctions screening against a running server and its embedded chain (DESIGN §17, decision 0037):
// the sandbox's stand-in oracle edited through POST /test-helpers/sanctions, and a list file. A
// listed destination is refused (403 destination_sanctioned), nothing moves, and the account is
// frozen with an audit entry by `system`; a quote only refuses; an oracle without an answer is 503
// screening_unavailable with nothing moved; an address listed between the request and the signing
// is never paid; a deposit from a listed sender is blocked (in the history as `blocked`, credited to
// nobody, custody still whole) until an operator releases it, once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, erc20Abi, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { checkCustody } from '../../src/books/custody-check.js';
import { readFreeze } from '../../src/compliance/freezes/freezes-repository.js';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
import {
  SANCTIONS_ORACLE_RUNTIME_BYTECODE,
  SANDBOX_SANCTIONS_ORACLE,
  setSandboxSanctioned,
} from '../../src/adapters/chain/sandbox-sanctions-oracle.js';
import { accountIdOf, balanceOf, fund } from '../helpers/stablecoin.js';
import { chainClients, drainDeposits, faucet, mined } from '../helpers/stablecoin-chain.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { freshAddress, fundHotWallet, onChainBalance, settleWithdrawals, withdraw, withdrawalSnapshot } from '../helpers/withdrawals.js';

const TOKEN = 'operator-token-for-sanctions-tests-0123456789';
const operator = { authorization: `Bearer ${TOKEN}` };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-sanctions-api-'));
const listFile = path.join(dir, 'sanctions.txt');
/** On the operator's list file from the start (in lower case: the list is case-insensitive). */
const FILE_LISTED = freshAddress();

let server: TestServer;

beforeAll(async () => {
  fs.writeFileSync(listFile, `# test list\n${FILE_LISTED.toLowerCase()}\n`);
  server = await startTestServer({ OPERATOR_TOKEN: TOKEN, SANCTIONS_LIST_FILE: listFile });
  // USDC only: EURC withdrawals wait for the hot wallet, which is how a test puts time between a
  // withdrawal's request and its signing.
  await fundHotWallet(server, 1_000_000_000n, 'USDC');
});
afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function listOnOracle(address: string, sanctioned = true): Promise<void> {
  const response = await server.request('POST', '/test-helpers/sanctions', { body: { address, sanctioned } });
  expect(response.status, response.text).toBe(200);
  expect(response.body).toEqual({ address, sanctioned });
}

async function fundedUser(amountMinor = 20_000_000n, token: 'USDC' | 'EURC' = 'USDC'): Promise<TestUser & { accountId: number }> {
  const user = await registerUser(server);
  await fund(server, user, amountMinor, token);
  return { ...user, accountId: await accountIdOf(server, user) };
}

async function systemFreezes(accountId: number) {
  return server.deps.db
    .selectFrom('audit_log')
    .selectAll()
    .where('target', '=', String(accountId))
    .where('action', '=', 'account.freeze')
    .execute();
}

async function expectFrozenBySystem(user: TestUser & { accountId: number }, address: string): Promise<void> {
  const entries = await systemFreezes(user.accountId);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ operator: 'system', request_id: null });
  expect(entries[0]!.note).toContain(address);
  // Frozen (scope all: nothing leaves the account any more), by the automatic control.
  expect(await readFreeze(server.deps.db, user.accountId)).toMatchObject({ scope: 'all', by: 'system' });
}

async function setOracleCode(code: `0x${string}`): Promise<void> {
  await chainClients(server).testClient.setCode({ address: SANDBOX_SANCTIONS_ORACLE, bytecode: code });
}

describe('withdrawal destinations', () => {
  it('a listed address is refused: 403, nothing moves, the account is frozen by system', async () => {
    const user = await fundedUser();
    const listed = freshAddress();
    await listOnOracle(listed);
    const before = await withdrawalSnapshot(server);
    const problem = expectProblem(
      await withdraw(server, user, { amount: 5, currency: 'USDC', address: listed }),
      403,
      'destination_sanctioned',
    );
    expect(problem.detail).toContain(listed);
    expect(await withdrawalSnapshot(server)).toBe(before);
    expect(await balanceOf(server, user)).toEqual({ USDC: '20.000000', EURC: '0.000000' });
    expect(await onChainBalance(server, listed)).toBe(0n);
    await expectFrozenBySystem(user, listed);
  });

  it('an address on the list file is refused in any case, also as the saved default address', async () => {
    const user = await fundedUser();
    const response = await server.request('PUT', '/stablecoin/withdrawal-address', { key: user.key, body: { address: FILE_LISTED } });
    expectProblem(response, 403, 'destination_sanctioned');
    const saved = await server.request('GET', '/stablecoin/withdrawal-address', { key: user.key });
    expect(saved.body).toEqual({ address: null });
    await expectFrozenBySystem(user, FILE_LISTED);
  });

  it('a quote for a listed address is refused without freezing the account', async () => {
    const user = await fundedUser();
    const listed = freshAddress();
    await listOnOracle(listed);
    const quote = await server.request('GET', `/stablecoin/withdraw/quote?amount=5&currency=USDC&address=${listed}`, { key: user.key });
    expectProblem(quote, 403, 'destination_sanctioned');
    expect(await systemFreezes(user.accountId)).toEqual([]);
    expect(await readFreeze(server.deps.db, user.accountId)).toBeNull();
    const clean = await server.request('GET', `/stablecoin/withdraw/quote?amount=5&currency=USDC&address=${freshAddress()}`, {
      key: user.key,
    });
    expect(clean.status).toBe(200);
  });

  it('an unlisted address is paid again once the oracle says so', async () => {
    const user = await fundedUser();
    const address = freshAddress();
    await listOnOracle(address);
    await listOnOracle(address, false);
    const response = await withdraw(server, user, { amount: 5, currency: 'USDC', address });
    expect(response.status, response.text).toBe(200);
    await settleWithdrawals(server);
    expect(await onChainBalance(server, address)).toBe(4_925_500n);
  });

  it('an oracle that does not answer: 503 screening_unavailable with Retry-After, nothing moves, nothing frozen', async () => {
    const user = await fundedUser();
    const before = await withdrawalSnapshot(server);
    await setOracleCode('0x');
    try {
      const response = await withdraw(server, user, { amount: 5, currency: 'USDC', address: freshAddress() });
      expectProblem(response, 503, 'screening_unavailable');
      expect(response.headers.get('retry-after')).toBe('30');
      const quote = await server.request('GET', `/stablecoin/withdraw/quote?amount=5&currency=USDC&address=${freshAddress()}`, {
        key: user.key,
      });
      expectProblem(quote, 503, 'screening_unavailable');
    } finally {
      await setOracleCode(SANCTIONS_ORACLE_RUNTIME_BYTECODE);
    }
    expect(await withdrawalSnapshot(server)).toBe(before);
    expect(await systemFreezes(user.accountId)).toEqual([]);
  });

  it('an address listed between the request and the signing is not paid; the gross returns to the frozen balance', async () => {
    const user = await fundedUser(20_000_000n, 'EURC');
    const address = freshAddress();
    const response = await withdraw(server, user, { amount: 5, currency: 'EURC', address });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ status: 'pending', txId: null });
    // Listed on chain directly: this process's cached "clear" from the request is still there, and
    // the check before signing must not rely on it.
    await setSandboxSanctioned({ rpcUrl: server.deps.chain.rpcUrl, chainId: server.deps.chain.chainId, address, sanctioned: true });
    await fundHotWallet(server, 100_000_000n, 'EURC');
    const hotBefore = await onChainBalance(server, server.deps.wallets.hotWallet.address, 'EURC');
    await settleWithdrawals(server);

    const history = await server.request('GET', '/stablecoin/transfers?limit=10', { key: user.key });
    expect(history.body.transfers.find((t: { id: string }) => t.id === response.body.withdrawalId)).toMatchObject({
      status: 'failed',
      txHash: null,
    });
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '20.000000' });
    expect(await onChainBalance(server, address, 'EURC')).toBe(0n);
    expect(await onChainBalance(server, server.deps.wallets.hotWallet.address, 'EURC')).toBe(hotBefore);
    const outbox = await server.deps.db
      .selectFrom('hot_wallet_outbox')
      .select('id')
      .where('reference_id', '=', response.body.withdrawalId)
      .execute();
    expect(outbox).toEqual([]);
    const failed = await server.deps.db
      .selectFrom('withdrawals')
      .select('failure_code')
      .where('id', '=', response.body.withdrawalId)
      .executeTakeFirstOrThrow();
    expect(failed.failure_code).toBe('destination_sanctioned');
    const events = await server.deps.db.selectFrom('events').select('type').where('account_id', '=', user.accountId).execute();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['withdrawal.failed', 'account.frozen']));
    await expectFrozenBySystem(user, address);
  });
});

/** A wallet outside peerpay, with tokens and gas, sending `amountMinor` USDC to `to`. */
async function depositFrom(sender: ReturnType<typeof privateKeyToAccount>, to: string, amountMinor: bigint): Promise<void> {
  const { rpcUrl, chainId, tokens } = server.deps.chain;
  await chainClients(server).testClient.setBalance({ address: sender.address, value: 10n ** 18n });
  await mined(server, await faucet(server, { address: sender.address, amount: Number(amountMinor) / 1e6, currency: 'USDC' }));
  const wallet = createWalletClient({ account: sender, chain: chainFor({ chainId, rpcUrl }), transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: tokens.USDC,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to as Address, amountMinor],
  });
  await mined(server, hash);
}

describe('deposits from a listed sender', () => {
  const sender = privateKeyToAccount(generatePrivateKey());
  let user: TestUser & { accountId: number };
  let depositId: string;

  it('are blocked: in the history as `blocked`, not in the balance, the account frozen, custody still whole', async () => {
    user = { ...(await registerUser(server)), accountId: 0 };
    user.accountId = await accountIdOf(server, user);
    await listOnOracle(sender.address);
    await depositFrom(sender, user.depositAddress, 7_000_000n);
    await drainDeposits(server);

    const history = await server.request('GET', '/stablecoin/transfers?limit=10', { key: user.key });
    const item = history.body.transfers.find((t: { type: string }) => t.type === 'deposit');
    expect(item).toMatchObject({
      type: 'deposit',
      direction: 'received',
      status: 'blocked',
      amount: 7,
      currency: 'USDC',
      address: sender.address,
    });
    depositId = item.id;
    expect(depositId).toMatch(/^dep_/);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    const results = await checkCustody(server.deps);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
    const entries = await systemFreezes(user.accountId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operator: 'system' });
    expect(await readFreeze(server.deps.db, user.accountId)).toMatchObject({ scope: 'all', by: 'system' });
    // No deposit.credited event: nothing was credited.
    const events = await server.deps.db.selectFrom('events').select('type').where('account_id', '=', user.accountId).execute();
    expect(events.map((e) => e.type)).toEqual(['account.frozen']);
  });

  it('a sender screening cannot answer for is neither credited nor blocked until it can', async () => {
    const other = await registerUser(server);
    const otherSender = privateKeyToAccount(generatePrivateKey());
    await depositFrom(otherSender, other.depositAddress, 2_000_000n);
    await setOracleCode('0x');
    try {
      await expect(drainDeposits(server)).rejects.toMatchObject({ code: 'screening_unavailable' });
      const rows = await server.deps.db.selectFrom('chain_deposits').select('id').where('to_address', '=', other.depositAddress).execute();
      expect(rows).toEqual([]);
    } finally {
      await setOracleCode(SANCTIONS_ORACLE_RUNTIME_BYTECODE);
    }
    await drainDeposits(server);
    expect(await balanceOf(server, other)).toEqual({ USDC: '2.000000', EURC: '0.000000' });
  });

  it('release needs an operator and a note', async () => {
    expectProblem(await server.request('POST', `/admin/deposits/${depositId}/release`, { body: { note: 'ok' } }), 404);
    const created = await server.request('POST', '/admin/operators', {
      headers: operator,
      body: { name: 'sanctions-viewer', role: 'viewer', note: 'reads only' },
    });
    expect(created.status, created.text).toBe(201);
    const viewer = { authorization: `Bearer ${created.body.token}` };
    expectProblem(
      await server.request('POST', `/admin/deposits/${depositId}/release`, { headers: viewer, body: { note: 'ok' } }),
      403,
      'operator_forbidden',
    );
    expectProblem(await server.request('POST', `/admin/deposits/${depositId}/release`, { headers: operator, body: { note: ' ' } }), 400);
    expectProblem(
      await server.request('POST', `/admin/deposits/dep_nothing/release`, { headers: operator, body: { note: 'ok' } }),
      404,
      'not_found',
    );
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
  });

  it('an operator release credits it once: concurrent and repeated releases change nothing more', async () => {
    const release = () =>
      server.request('POST', `/admin/deposits/${depositId}/release`, { headers: operator, body: { note: 'reviewed: false positive' } });
    const answers = await Promise.all([release(), release(), release()]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(answers.filter((a) => a.body.changed === true)).toHaveLength(1);
    expect(answers[0].body.deposit).toMatchObject({ id: depositId, status: 'released', amount: '7.000000', currency: 'USDC' });
    const again = await release();
    expect(again.body).toMatchObject({ changed: false, deposit: { status: 'released' } });

    expect(await balanceOf(server, user)).toEqual({ USDC: '7.000000', EURC: '0.000000' });
    const audit = await server.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'deposit.release')
      .where('target', '=', depositId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operator: 'env', note: 'reviewed: false positive' });
    const history = await server.request('GET', '/stablecoin/transfers?limit=10', { key: user.key });
    expect(history.body.transfers.find((t: { id: string }) => t.id === depositId)).toMatchObject({ status: 'complete', amount: 7 });
    expect((await checkCustody(server.deps)).every((r) => r.ok)).toBe(true);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('a deposit that was never blocked cannot be released', async () => {
    const row = await server.deps.db.selectFrom('chain_deposits').select('id').where('status', '=', 'credited').executeTakeFirstOrThrow();
    expectProblem(await server.request('POST', `/admin/deposits/${row.id}/release`, { headers: operator, body: { note: 'x' } }), 400);
  });
});
