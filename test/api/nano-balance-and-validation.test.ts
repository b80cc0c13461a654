// Paying from a balance (a valid key and X-Payment-Source: balance), and parameters checked before
// any payment is asked for: a bad one is a 400 that costs nothing, by any way of paying.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { balanceOf, fund } from '../helpers/stablecoin.js';
import { fundedPayer, handMadeV1Header, QUOTE_PRICE, recordingFetch, SEARCH_PRICE, usdcOf, x402Books } from '../helpers/nano.js';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';

let server: TestServer;
let rich: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  rich = await registerUser(server, { name: 'Rich Caller' });
  await fund(server, rich, 1_000_000n);
});
afterAll(async () => {
  await server?.close();
});

function fromBalance(user: TestUser, path: string) {
  return server.request('GET', path, { key: user.key, headers: { 'X-Payment-Source': 'balance' } });
}

describe('paying from the caller’s balance', () => {
  it('charges the price from the caller’s USDC to x402 revenue, atomically with the answer', async () => {
    const before = await x402Books(server);
    const response = await fromBalance(rich, '/nano/quote?amount=10');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ fee: 0.149, recipientReceives: 9.851 });
    expect(response.headers.get('x-payment-source')).toBe('balance');
    expect(response.headers.get('x-payment-id')).toMatch(/^x402_/);
    expect(await balanceOf(server, rich)).toMatchObject({ USDC: '0.999900' });
    const after = await x402Books(server);
    expect(after.revenue).toBe(before.revenue + QUOTE_PRICE);
    expect(after.settled).toBe(before.settled + 1);
    expect(after.custody).toBe(before.custody);

    const search = await fromBalance(rich, '/nano/search?q=rich');
    expect(search.status).toBe(200);
    expect(await balanceOf(server, rich)).toMatchObject({ USDC: '0.998900' });
    expect((await x402Books(server)).revenue).toBe(before.revenue + QUOTE_PRICE + SEARCH_PRICE);
  });

  it('refuses a caller whose balance is short with 402 insufficient_funds and serves nothing', async () => {
    const poor = await registerUser(server);
    await fund(server, poor, SEARCH_PRICE - 1n);
    const before = await x402Books(server);
    const response = await fromBalance(poor, '/nano/search?q=rich');
    expect(response.status).toBe(402);
    expect(response.body.error).toBe('insufficient_funds');
    expect(response.body.results).toBeUndefined();
    expect(await balanceOf(server, poor)).toMatchObject({ USDC: '0.000999' });
    expect((await x402Books(server)).revenue).toBe(before.revenue);
  });

  it('never overdraws under concurrency: 10 calls on a balance for 3', async () => {
    const user = await registerUser(server);
    await fund(server, user, 3n * QUOTE_PRICE);
    const responses = await Promise.all(Array.from({ length: 10 }, () => fromBalance(user, '/nano/quote?amount=1')));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 402).every((r) => r.body.error === 'insufficient_funds')).toBe(true);
    expect(await balanceOf(server, user)).toMatchObject({ USDC: '0.000000' });
  });

  it('needs a valid key', async () => {
    expectProblem(await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-Payment-Source': 'balance' } }), 401, 'unauthorized');
    expectProblem(
      await server.request('GET', '/nano/quote?amount=1', { key: 'pa_live_invalid', headers: { 'X-Payment-Source': 'balance' } }),
      401,
      'unauthorized',
    );
  });

  it('refuses other payment sources and two ways of paying at once (400)', async () => {
    expectProblem(
      await server.request('GET', '/nano/quote?amount=1', { key: rich.key, headers: { 'X-Payment-Source': 'card' } }),
      400,
      'invalid_request',
    );
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    const before = await balanceOf(server, rich);
    expectProblem(
      await server.request('GET', '/nano/quote?amount=1', {
        key: rich.key,
        headers: { 'X-Payment-Source': 'balance', 'X-PAYMENT': header },
      }),
      400,
      'invalid_request',
    );
    expect(await balanceOf(server, rich)).toEqual(before);
  });

  it('a key without X-Payment-Source still needs a payment (402)', async () => {
    const response = await server.request('GET', '/nano/quote?amount=1', { key: rich.key });
    expect(response.status).toBe(402);
  });
});

describe('bad parameters: 400 before any payment is asked for', () => {
  const BAD: [string, string][] = [
    ['/nano/search', 'invalid_request'],
    ['/nano/search?q=', 'invalid_request'],
    ['/nano/search?q=%20%20', 'invalid_request'],
    [`/nano/search?q=${'x'.repeat(150)}`, 'invalid_request'],
    ['/nano/search?website=not%20a%20host', 'invalid_request'],
    ['/nano/search?website=http://', 'invalid_request'],
    ['/nano/search?q=a&q=b', 'invalid_request'],
    ['/nano/search?q=a&email=x@example.com', 'invalid_request'],
    ['/nano/lookup', 'invalid_request'],
    ['/nano/lookup?email=a@example.com&handle=PA-AAAAAAAA', 'invalid_request'],
    ['/nano/lookup?email=not-an-email', 'invalid_email'],
    ['/nano/lookup?email=bob%E2%80%8B%40example.com', 'invalid_email'],
    ['/nano/lookup?handle=PA-123', 'invalid_request'],
    ['/nano/quote', 'invalid_amount'],
    ['/nano/quote?amount=abc', 'invalid_amount'],
    ['/nano/quote?amount=-1', 'invalid_amount'],
    ['/nano/quote?amount=0', 'invalid_amount'],
    ['/nano/quote?amount=1e400', 'amount_too_large'],
    ['/nano/quote?amount=1e-400', 'invalid_amount'],
    ['/nano/quote?amount=1.0000001', 'invalid_amount'],
    ['/nano/quote?amount=1.001&currency=USD&action=instant', 'invalid_amount'],
    ['/nano/quote?amount=1.5&currency=JPY&action=ach', 'invalid_amount'],
    ['/nano/quote?amount=99999999', 'amount_too_large'],
    ['/nano/quote?amount=1&currency=XYZ', 'unsupported_currency'],
    ['/nano/quote?amount=1&currency=USD&action=transfer', 'unsupported_currency'],
    ['/nano/quote?amount=1&currency=USDC&action=ach', 'unsupported_currency'],
    ['/nano/quote?amount=1&action=refund', 'invalid_request'],
    ['/nano/quote?amount=1&fee=0', 'invalid_request'],
  ];

  it.each(BAD)('%s → 400 %s, without payment', async (path, code) => {
    expectProblem(await server.request('GET', path), 400, code);
  });

  it('an x402 client is told 400 and never pays', async () => {
    const payer = await fundedPayer(server);
    const sent: Headers[] = [];
    const pay = wrapFetchV1(recordingFetch(sent), payer, 10_000n);
    const before = await usdcOf(server, payer.address);
    for (const [path] of BAD) {
      const response = await pay(`${server.url}${path}`);
      expect(response.status).toBe(400);
    }
    expect(sent.some((h) => h.has('x-payment'))).toBe(false);
    expect(await usdcOf(server, payer.address)).toBe(before);
  });

  it('a valid payment with bad parameters is not taken: the authorization stays usable', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    const before = await usdcOf(server, payer.address);
    expectProblem(await server.request('GET', '/nano/quote?amount=abc', { headers: { 'X-PAYMENT': header } }), 400, 'invalid_amount');
    expect(await usdcOf(server, payer.address)).toBe(before);
    const paid = await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } });
    expect(paid.status).toBe(200);
    expect(await usdcOf(server, payer.address)).toBe(before - QUOTE_PRICE);
  });

  it('a balance payer with bad parameters is not charged', async () => {
    const before = await balanceOf(server, rich);
    for (const [path, code] of BAD) expectProblem(await fromBalance(rich, path), 400, code);
    expect(await balanceOf(server, rich)).toEqual(before);
  });
});

describe('the directory', () => {
  it('lists only users who opted in, matches names and handles case-insensitively and websites by host, and shows no e-mail', async () => {
    const listed = await registerUser(server, { name: 'Quentin Directory' });
    const hidden = await registerUser(server, { name: 'Quentin Hidden' });
    const onSite = await registerUser(server, { name: 'Sally Site' });
    expect((await server.request('PATCH', '/account', { key: listed.key, body: { discoverable: true } })).status).toBe(200);
    expect(
      (await server.request('PATCH', '/account', { key: hidden.key, body: { discoverable: false, website: 'https://quentin.example' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await server.request('PATCH', '/account', {
          key: onSite.key,
          body: { discoverable: true, website: 'https://shop.sally.example:8443/store' },
        })
      ).status,
    ).toBe(200);

    const byName = await fromBalance(rich, '/nano/search?q=QUENTIN');
    expect(byName.body.results).toEqual([{ handle: listed.handle, name: 'Quentin Directory', website: null }]);
    const byHandle = await fromBalance(rich, `/nano/search?q=${listed.handle.toLowerCase().slice(3)}`);
    expect(byHandle.body.results.map((r: any) => r.handle)).toEqual([listed.handle]);
    const bySite = await fromBalance(rich, '/nano/search?website=https://www.shop.sally.example/');
    expect(bySite.body.results).toEqual([{ handle: onSite.handle, name: 'Sally Site', website: 'https://shop.sally.example:8443/store' }]);
    expect((await fromBalance(rich, '/nano/search?website=sally.example')).body.results).toEqual([]);
    expect((await fromBalance(rich, '/nano/search?website=quentin.example')).body.results).toEqual([]);
    // LIKE wildcards in q are literal characters.
    expect((await fromBalance(rich, '/nano/search?q=%25')).body.results).toEqual([]);
    expect((await fromBalance(rich, '/nano/search?q=_')).body.results).toEqual([]);
    for (const response of [byName, byHandle, bySite]) expect(response.text).not.toContain('@');
  });

  it('answers at most 20 results', async () => {
    for (let i = 0; i < 22; i++) {
      const user = await registerUser(server, { name: `Many Bounded ${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}` });
      await server.request('PATCH', '/account', { key: user.key, body: { discoverable: true } });
    }
    const response = await fromBalance(rich, '/nano/search?q=many%20bounded');
    expect(response.body.results).toHaveLength(20);
    expect(response.body.results[0].name).toBe('Many Bounded aa');
  });
});

describe('the books', () => {
  it('keep the ledger balanced', async () => {
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('the logs hold no API key', () => {
    expect(server.logs.length).toBeGreaterThan(0);
    expect(server.logs.join('\n')).not.toContain(rich.key);
    expect(server.logs.join('\n')).not.toContain('pa_live_');
  });
});
