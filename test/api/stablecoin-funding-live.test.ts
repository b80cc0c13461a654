// Funding links on a chain where peerpay cannot mint (DESIGN §11): a separately started anvil
// stands in for the Polygon node (test/helpers/live-chain.ts), and peerpay reaches it only through
// CHAIN_RPC_URL, USDC_ADDRESS and EURC_ADDRESS (sandbox mode, so that the test clock can move).
// POST /stablecoin/buy-session hands out a link whose page shows the deposit address as text and
// QR code, the network, token, amount and expiry, with no buttons and no POST; tokens sent to the
// address from outside are credited by the deposit watcher; an expired link answers 410.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qrcode from 'qrcode-generator';
import { erc20Abi, type Address } from 'viem';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { depositFundingPage } from '../../src/http/views/funding-link-pages.js';
import { TEST_MASTER_SEED, expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, linkPath, submitLink } from '../helpers/fiat.js';
import { accountIdByHandle, chainClients, depositSnapshot, drainDeposits, ledgerBalance } from '../helpers/stablecoin-chain.js';
import { startLiveChain, type LiveChain } from '../helpers/live-chain.js';

let chain: LiveChain;
let server: TestServer;
let alice: TestUser;
let aliceId: number;

beforeAll(async () => {
  const hotWallet = createHdWalletProvider(Buffer.from(TEST_MASTER_SEED.slice(2), 'hex')).hotWallet.address;
  chain = await startLiveChain({ hotWallet });
  try {
    server = await startTestServer({ CHAIN_RPC_URL: chain.rpcUrl, USDC_ADDRESS: chain.tokens.USDC, EURC_ADDRESS: chain.tokens.EURC });
  } catch (error) {
    await chain.stop();
    throw error;
  }
  alice = await registerUser(server);
  aliceId = await accountIdByHandle(server, alice);
}, 60_000);

afterAll(async () => {
  if (server) {
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
    await server.close();
  }
  await chain?.stop();
});

async function buySession(user: TestUser, body: unknown) {
  const response = await server.request('POST', '/stablecoin/buy-session', { key: user.key, body });
  expect(response.status, response.text).toBe(200);
  return response.body as { url: string; amount: number; currency: string; expiresAt: string };
}

async function getPage(url: string) {
  const response = await fetch(server.url + linkPath(url));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function totalSupply(token: 'USDC' | 'EURC'): Promise<bigint> {
  return chainClients(server).publicClient.readContract({ address: chain.tokens[token], abi: erc20Abi, functionName: 'totalSupply' });
}

/** The dark modules that the page's inline SVG draws, as rows of 0/1 (the quiet zone left out). */
function modulesOfSvg(svg: string): string[] {
  const viewBox = /viewBox="0 0 (\d+) \d+"/.exec(svg);
  const d = /<path fill="#000" d="([^"]*)"/.exec(svg);
  if (!viewBox || !d) throw new Error('no QR code on the page');
  const quiet = 4;
  const count = Number(viewBox[1]) - 2 * quiet;
  const rows = Array.from({ length: count }, () => Array<string>(count).fill('0'));
  for (const [, x, y] of d[1]!.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) rows[Number(y) - quiet]![Number(x) - quiet] = '1';
  return rows.map((row) => row.join(''));
}

/** The modules of a QR code of `text`, made independently of the page with the same library. */
function modulesOf(text: string): string[] {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  return Array.from({ length: count }, (_, r) => Array.from({ length: count }, (_, c) => (qr.isDark(r, c) ? '1' : '0')).join(''));
}

describe('funding links on an external chain', () => {
  it('runs against the separately started chain, which peerpay cannot mint on', () => {
    expect(server.deps.chain.sandboxChain).toBeNull();
    expect(server.deps.chain.rpcUrl).toBe(chain.rpcUrl);
    expect(server.deps.chain.chainId).toBe(137);
    expect(server.deps.chain.tokens).toEqual(chain.tokens);
  });

  it('hands out a page with the deposit address, its QR code, network, token, amount and expiry, and no buttons', async () => {
    const link = await buySession(alice, { amount: 25.5, currency: 'USDC' });
    expect(link).toEqual({
      url: expect.stringMatching(/\/links\/funding\/[0-9A-Za-z]{43}$/),
      amount: 25.5,
      currency: 'USDC',
      expiresAt: expect.any(String),
    });

    const page = await getPage(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(alice.handle);
    expect(page.text).toContain(`<code class="address">${alice.depositAddress}</code>`);
    expect(page.text).toContain(`USDC, contract <code class="address">${chain.tokens.USDC}</code>`);
    expect(page.text).toContain('Polygon PoS (chain id 137)');
    expect(page.text).toContain('25.5 USDC');
    // The expiry in the reader's terms: how long from now, and when in UTC.
    expect(page.text).toMatch(/<dt>Expires<\/dt><dd>in \d+ (minutes|hours) \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)<\/dd>/);
    expect(page.text).toContain(`${link.expiresAt.slice(0, 16).replace('T', ' ')} UTC`);
    expect(page.text).toMatch(/exchange/);
    expect(page.text).toMatch(/not credited and may be lost/);
    // The QR code is inline SVG of the bare deposit address.
    expect(page.text).toContain('<svg class="qr"');
    expect(modulesOfSvg(page.text)).toEqual(modulesOf(alice.depositAddress));
    // Nothing on the page acts: no form, no button, no script; nothing loaded from elsewhere.
    expect(page.text).not.toMatch(/<form|<button|<script|<img|<link |https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
    expect(page.text).not.toContain('Sandbox: no payment is taken');
    // The link pages' headers, unchanged: no scripts allowed, never cached, framed or referred.
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // The link token never reaches a log line.
    expect(server.logs.join('')).not.toContain(link.url.split('/').pop());
  });

  it('shows the EURC contract for an EURC link', async () => {
    const link = await buySession(alice, { amount: 10, currency: 'eurc' });
    const page = await getPage(link.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('10 EURC');
    expect(page.text).toContain(`EURC, contract <code class="address">${chain.tokens.EURC}</code>`);
  });

  it('has no POST: submitting the page answers 404, mints nothing and leaves the link open', async () => {
    const link = await buySession(alice, { amount: 7, currency: 'USDC' });
    const supply = await totalSupply('USDC');
    const before = await depositSnapshot(server);
    for (const outcome of ['succeed', undefined, 'cancel']) {
      const response = await submitLink(server, link.url, outcome);
      expect([404, 405]).toContain(response.status);
    }
    expectProblem(await server.request('POST', linkPath(link.url), { body: { outcome: 'succeed' } }), 404);
    expect(await totalSupply('USDC')).toBe(supply);
    expect(await drainDeposits(server)).toBe(0);
    expect(await depositSnapshot(server)).toBe(before);
    expect((await getPage(link.url)).status).toBe(200);
  });

  it('credits tokens that arrive at the deposit address through the deposit watcher, once', async () => {
    const link = await buySession(alice, { amount: 25.5, currency: 'USDC' });
    const page = await getPage(link.url);
    const address = /<code class="address">(0x[0-9a-fA-F]{40})<\/code>/.exec(page.text)![1] as Address;
    expect(address).toBe(alice.depositAddress);
    const before = await ledgerBalance(server, aliceId, 'USDC');

    // Sent from outside, as an exchange would.
    await chain.mint({ to: address, token: 'USDC', amountMinor: 25_500_000n });
    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(before + 25_500_000n);
    expect(await drainDeposits(server)).toBe(0);
    expect(before).toBe(0n);
    expect((await server.request('GET', '/stablecoin/balance', { key: alice.key })).body.USDC).toBe('25.500000');
  });

  it('answers unknown links with 404 and expired ones with 410', async () => {
    expect((await getPage(`${server.url}/links/funding/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await getPage(`${server.url}/links/funding/short`)).status).toBe(404);
    const link = await buySession(alice, { amount: 6, currency: 'USDC' });
    await advanceDays(server, 1);
    const page = await getPage(link.url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('Link expired');
    expect(page.text).not.toContain(alice.depositAddress);
  });
});

describe('the deposit page in live mode', () => {
  const input = {
    handle: 'alice<script>',
    order: { token: 'USDC' as const, amountMinor: 1_500_000n },
    depositAddress: '0x1111111111111111111111111111111111111111',
    tokenAddress: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    chainId: 137,
    confirmations: 12,
    expiresAt: new Date('2030-01-02T03:04:05.000Z'),
    now: new Date('2030-01-01T01:04:05.000Z'),
  };

  it('is titled after peerpay, not the sandbox, and escapes what it shows', () => {
    const html = depositFundingPage(input);
    expect(html).toContain('<title>Add 1.5 USDC · peerpay</title>');
    expect(html).not.toMatch(/sandbox/i);
    expect(html).toContain('alice&lt;script&gt;');
    expect(html).not.toContain('<script');
    expect(html).toContain('once the transfer has 12 confirmations');
    expect(html).toContain('in 26 hours (2030-01-02 03:04 UTC)');
  });

  it('names another chain by its id', () => {
    expect(depositFundingPage({ ...input, chainId: 31337 })).toContain('EVM chain 31337 (chain id 31337)');
  });
});
