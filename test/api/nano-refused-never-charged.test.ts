// A paid call that is refused moves no money, whatever refuses it: Node's HTTP parser (a request
// with a Transfer-Encoding it cannot frame, a body that breaks off), or peerpay itself. And HEAD,
// a safe method, never pays: it answers as an unpaid GET (402 with the requirements), by any way
// of paying. Balances are read through the API before and after.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { balanceOf, fund } from '../helpers/stablecoin.js';
import { fundedPayer, handMadeV1Header, SEARCH_PRICE, usdcOf, x402Books } from '../helpers/nano.js';

let server: TestServer;
let caller: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  caller = await registerUser(server, { name: 'Careful Caller' });
  await fund(server, caller, 1_000_000n);
});
afterAll(async () => {
  await server?.close();
});

/** Sends `head` (and `rest`, after a pause) on a socket of its own; resolves with all it reads until the socket closes. */
function rawExchange(head: string, rest?: string): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(head);
    // The rest is written without closing our side: Node's server (httpAllowHalfOpen off) aborts a
    // request whose client half-closes, so `end(rest)` would race the answer against that abort.
    if (rest !== undefined) setTimeout(() => socket.write(rest), 200);
    setTimeout(() => socket.end(), rest !== undefined ? 3_000 : 1_000);
  });
}

function requestHead(method: string, target: string, headers: Record<string, string>): string {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${new URL(server.url).host}`, `Authorization: Bearer ${caller.key}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Whatever the server does with the request runs on after the answer; give it time to (not) charge. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

async function expectNothingMoved(run: () => Promise<void>) {
  const balance = await balanceOf(server, caller);
  const books = await x402Books(server);
  await run();
  await settle();
  expect(await balanceOf(server, caller)).toEqual(balance);
  expect(await x402Books(server)).toEqual(books);
}

describe('a paid call refused by the HTTP parser moves no money', () => {
  for (const method of ['HEAD', 'GET']) {
    it(`${method} with X-Payment-Source: balance and Transfer-Encoding: gzip is a 400 that charges nothing`, async () => {
      await expectNothingMoved(async () => {
        const answer = await rawExchange(
          requestHead(method, '/nano/search?q=careful', { 'X-Payment-Source': 'balance', 'Transfer-Encoding': 'gzip' }),
        );
        expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      });
    });
  }

  it('GET with a chunked body that breaks off is refused and charges nothing', async () => {
    await expectNothingMoved(async () => {
      const answer = await rawExchange(
        requestHead('GET', '/nano/search?q=careful', { 'X-Payment-Source': 'balance', 'Transfer-Encoding': 'chunked' }) + '5\r\nhel',
        'not a chunk\r\n\r\n',
      );
      expect(answer).not.toMatch(/^HTTP\/1\.1 200 /);
    });
  });

  it('GET with a body that is whole is served and charged once', async () => {
    const before = await balanceOf(server, caller);
    const answer = await rawExchange(
      requestHead('GET', '/nano/search?q=careful', {
        'X-Payment-Source': 'balance',
        'Content-Type': 'application/json',
        'Content-Length': '2',
        Connection: 'close',
      }) + '{}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const after = await balanceOf(server, caller);
    expect(Number(before.USDC) - Number(after.USDC)).toBeCloseTo(Number(SEARCH_PRICE) / 1e6, 6);
  });
  it('GET with a chunked body that arrives late but whole is served and charged once, after the body', async () => {
    const before = await balanceOf(server, caller);
    const answer = await rawExchange(
      requestHead('GET', '/nano/search?q=careful', {
        'X-Payment-Source': 'balance',
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
        Connection: 'close',
      }) + '1\r\n{\r\n',
      '1\r\n}\r\n0\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const after = await balanceOf(server, caller);
    expect(Number(before.USDC) - Number(after.USDC)).toBeCloseTo(Number(SEARCH_PRICE) / 1e6, 6);
  });
});

describe('HEAD never pays', () => {
  it('HEAD with X-Payment-Source: balance answers 402 with the requirements and charges nothing', async () => {
    await expectNothingMoved(async () => {
      const response = await server.request('HEAD', '/nano/search?q=careful', {
        key: caller.key,
        headers: { 'X-Payment-Source': 'balance' },
      });
      expect(response.status).toBe(402);
      expect(response.headers.get('payment-required')).toBeTruthy();
      expect(response.headers.get('x-payment-id')).toBeNull();
      expect(response.text).toBe('');
    });
  });

  it('HEAD with an x402 payment settles nothing: the payer keeps its USDC', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, SEARCH_PRICE);
    const held = await usdcOf(server, payer.address);
    await expectNothingMoved(async () => {
      const response = await server.request('HEAD', '/nano/search?q=careful', { headers: { 'X-PAYMENT': header } });
      expect(response.status).toBe(402);
    });
    expect(await usdcOf(server, payer.address)).toBe(held);
    // The same authorization still pays for the GET it was signed for.
    const paid = await server.request('GET', '/nano/search?q=careful', { headers: { 'X-PAYMENT': header } });
    expect(paid.status).toBe(200);
    expect(await usdcOf(server, payer.address)).toBe(held - SEARCH_PRICE);
  });

  it('GET with X-Payment-Source: balance still pays and is served', async () => {
    const response = await server.request('GET', '/nano/search?q=careful', { key: caller.key, headers: { 'X-Payment-Source': 'balance' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-payment-id')).toMatch(/^x402_/);
  });
});

describe('a malformed request pipelined after a paid one', () => {
  it('is refused after the paid answer, which is delivered first', async () => {
    const before = await balanceOf(server, caller);
    const answer = await rawExchange(
      requestHead('GET', '/nano/search?q=careful', { 'X-Payment-Source': 'balance' }) + 'NOT HTTP AT ALL\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nx-payment-id: x402_/i);
    expect(answer).toMatch(/HTTP\/1\.1 400 /);
    const after = await balanceOf(server, caller);
    expect(Number(before.USDC) - Number(after.USDC)).toBeCloseTo(Number(SEARCH_PRICE) / 1e6, 6);
  });
});
