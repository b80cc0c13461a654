// Funding links (POST /stablecoin/buy-session) and the deposit address, against a running server
// and its embedded chain: the sandbox page mints the tokens to the user's deposit address (checked
// on chain), the watcher credits them once, the link works once and for 30 minutes, and bad input
// changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi } from 'viem';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { sha256Hex } from '../../src/platform/ids.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, linkPath, submitLink } from '../helpers/fiat.js';
import {
  accountIdByHandle,
  chainClients,
  depositSnapshot,
  drainDeposits,
  ledgerBalance,
  mined,
  onChainBalance,
} from '../helpers/stablecoin-chain.js';
import { selfWallets } from '../helpers/self-wallets.js';

let server: TestServer;
let alice: TestUser;
let aliceId: number;

beforeAll(async () => {
  server = await startTestServer();
  alice = await registerUser(server);
  aliceId = await accountIdByHandle(server, alice);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function buySession(user: TestUser, body: unknown, headers: Record<string, string> = {}) {
  return server.request('POST', '/stablecoin/buy-session', { key: user.key, body, headers });
}

async function totalSupply(token: 'USDC' | 'EURC'): Promise<bigint> {
  return chainClients(server).publicClient.readContract({
    address: server.deps.chain.tokens[token],
    abi: erc20Abi,
    functionName: 'totalSupply',
  });
}

async function getPage(url: string) {
  const response = await fetch(server.url + linkPath(url));
  return { status: response.status, text: await response.text() };
}

function txHashIn(html: string): `0x${string}` {
  const match = /0x[0-9a-f]{64}/.exec(html);
  if (!match) throw new Error('no transaction hash on the page');
  return match[0] as `0x${string}`;
}

describe('POST /stablecoin/buy-session', () => {
  it('hands out a private 30-minute link; completing it mints to the deposit address and the watcher credits it once', async () => {
    const before = Date.parse((await server.request('GET', '/health')).body.time);
    const response = await buySession(alice, { amount: 25.5, currency: 'USDC' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      url: expect.stringMatching(/\/links\/funding\/[0-9A-Za-z]{43}$/),
      amount: 25.5,
      currency: 'USDC',
      expiresAt: expect.any(String),
    });
    const lifetime = Date.parse(response.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThanOrEqual(30 * 60 * 1000);
    expect(lifetime).toBeLessThan(30 * 60 * 1000 + 60_000);
    // Only the token's hash is stored.
    const token = response.body.url.split('/').pop();
    const link = await server.deps.db.selectFrom('links').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirstOrThrow();
    expect(link.purpose).toBe('funding');
    expect(JSON.stringify(link)).not.toContain(token);

    const page = await getPage(response.body.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('25.5 USDC');
    expect(page.text).toContain(alice.handle);
    expect(page.text).toContain(alice.depositAddress);

    const onChainBefore = await onChainBalance(server, 'USDC', alice.depositAddress);
    const done = await submitLink(server, response.body.url, 'succeed');
    expect(done.status).toBe(200);
    await mined(server, txHashIn(done.text));
    expect(await onChainBalance(server, 'USDC', alice.depositAddress)).toBe(onChainBefore + 25_500_000n);

    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(25_500_000n);
    expect((await server.request('GET', '/stablecoin/balance', { key: alice.key })).body.USDC).toBe('25.500000');

    // Used: 410 on both methods, nothing minted, nothing credited again.
    const supply = await totalSupply('USDC');
    expect((await submitLink(server, response.body.url, 'succeed')).status).toBe(410);
    expect((await getPage(response.body.url)).status).toBe(410);
    expect(await drainDeposits(server)).toBe(0);
    expect(await totalSupply('USDC')).toBe(supply);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(25_500_000n);
    // The token never reaches a log line.
    expect(server.logs.join('')).not.toContain(token);
  });

  it('works for EURC', async () => {
    const response = await buySession(alice, { amount: 1000000, currency: 'eurc' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ amount: 1000000, currency: 'EURC' });
    const done = await submitLink(server, response.body.url);
    expect(done.status).toBe(200);
    await mined(server, txHashIn(done.text));
    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'EURC')).toBe(1_000_000_000_000n);
  });

  it('cancel mints nothing and uses the link up', async () => {
    const response = await buySession(alice, { amount: 3, currency: 'USDC' });
    const supply = await totalSupply('USDC');
    const cancelled = await submitLink(server, response.body.url, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('Nothing was added');
    expect((await submitLink(server, response.body.url, 'succeed')).status).toBe(410);
    expect(await totalSupply('USDC')).toBe(supply);
  });

  it('refuses outcomes that are not on the page, and keeps the link open', async () => {
    const response = await buySession(alice, { amount: 2, currency: 'USDC' });
    for (const outcome of ['decline', 'return', 'SUCCEED']) expect((await submitLink(server, response.body.url, outcome)).status).toBe(400);
    expect((await getPage(response.body.url)).status).toBe(200);
  });

  it('lets exactly one of many simultaneous submissions mint', async () => {
    const response = await buySession(alice, { amount: 4, currency: 'USDC' });
    const supply = await totalSupply('USDC');
    const results = await Promise.all(Array.from({ length: 6 }, () => submitLink(server, response.body.url, 'succeed')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
    await mined(server, txHashIn(results.find((r) => r.status === 200)!.text));
    expect(await totalSupply('USDC')).toBe(supply + 4_000_000n);
  });

  it('answers unknown tokens with 404 and tokens of other link kinds too', async () => {
    expect((await getPage(`${server.url}/links/funding/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await getPage(`${server.url}/links/funding/short`)).status).toBe(404);
    const setup = await server.request('POST', '/agent/setup-link', { key: alice.key });
    const token = setup.body.url.split('/').pop();
    expect((await getPage(`${server.url}/links/funding/${token}`)).status).toBe(404);
    expect((await submitLink(server, `${server.url}/links/funding/${token}`, 'succeed')).status).toBe(404);
  });

  it('expires after 30 minutes: 410, nothing minted', async () => {
    const response = await buySession(alice, { amount: 6, currency: 'USDC' });
    await advanceDays(server, 1);
    const supply = await totalSupply('USDC');
    expect((await getPage(response.body.url)).status).toBe(410);
    expect((await submitLink(server, response.body.url, 'succeed')).status).toBe(410);
    expect(await totalSupply('USDC')).toBe(supply);
  });

  it('honours Idempotency-Key: a repeat replays the same link, another body is refused', async () => {
    const key = `fund-${Date.now()}`;
    const first = await buySession(alice, { amount: 8, currency: 'USDC' }, { 'idempotency-key': key });
    const links = await server.deps.db.selectFrom('links').select('id').execute();
    const again = await buySession(alice, { amount: 8, currency: 'USDC' }, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await server.deps.db.selectFrom('links').select('id').execute()).toHaveLength(links.length);
    expectProblem(await buySession(alice, { amount: 9, currency: 'USDC' }, { 'idempotency-key': key }), 422, 'idempotency_key_reused');
  });

  it.each([
    [{ amount: 0, currency: 'USDC' }, 'invalid_amount'],
    [{ amount: -5, currency: 'USDC' }, 'invalid_amount'],
    [{ amount: 1.0000001, currency: 'USDC' }, 'invalid_amount'],
    [{ amount: 1000000.000001, currency: 'USDC' }, 'amount_too_large'],
    [{ amount: 1e21, currency: 'USDC' }, 'amount_too_large'],
    [{ amount: '25', currency: 'USDC' }, 'invalid_request'],
    [{ amount: 25, currency: 'BTC' }, 'unsupported_currency'],
    [{ amount: 25, currency: 'USD' }, 'unsupported_currency'],
    [{ amount: 25 }, 'invalid_request'],
    [{ currency: 'USDC' }, 'invalid_request'],
    [{ amount: 25, currency: 'USDC', address: '0x0' }, 'invalid_request'],
  ])('refuses %j with 400 %s and changes nothing', async (body, code) => {
    const before = await depositSnapshot(server);
    expectProblem(await buySession(alice, body), 400, code);
    expect(await depositSnapshot(server)).toBe(before);
  });

  it('needs an API key', async () => {
    expectProblem(await server.request('POST', '/stablecoin/buy-session', { body: { amount: 1, currency: 'USDC' } }), 401);
  });
});

describe('GET /stablecoin/deposit-address', () => {
  it.each(['?chain=MATIC', '', '?chain=matic', '?chain=POLYGON'])('answers the caller’s Polygon address for %s', async (query) => {
    const response = await server.request('GET', `/stablecoin/deposit-address${query}`, { key: alice.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ address: alice.depositAddress, chain: 'MATIC', network: 'polygon', tokens: ['USDC', 'EURC'] });
    expect(response.body.address).toBe(selfWallets(server.deps.wallets).walletFor(aliceId).address);
  });

  it.each(['ETH', 'BASE', 'SOL', 'MATIC2', ' '])('refuses chain=%s with 400 unsupported_chain', async (chain) => {
    expectProblem(
      await server.request('GET', `/stablecoin/deposit-address?chain=${encodeURIComponent(chain)}`, { key: alice.key }),
      400,
      'unsupported_chain',
    );
  });

  it('refuses unknown parameters and an empty chain, and needs a key', async () => {
    expectProblem(
      await server.request('GET', '/stablecoin/deposit-address?chain=MATIC&token=USDC', { key: alice.key }),
      400,
      'invalid_request',
    );
    expectProblem(await server.request('GET', '/stablecoin/deposit-address?chain=', { key: alice.key }), 400, 'invalid_request');
    expectProblem(await server.request('GET', '/stablecoin/deposit-address?chain=MATIC'), 401);
  });
});
