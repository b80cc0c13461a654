// x402 micro-endpoints paid by the two published clients against a running peerpay on its embedded
// chain: x402-fetch (protocol v1, X-PAYMENT) and @x402/fetch with @x402/evm (v2, PAYMENT-SIGNATURE).
// Each paid call moves exactly the price from the payer to payTo on chain, carries the settlement
// header, and is recorded once as x402 revenue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeXPaymentResponse } from 'x402-fetch';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  decodeBase64Json,
  fundedPayer,
  LOOKUP_PRICE,
  nativeOf,
  payToOf,
  QUOTE_PRICE,
  SEARCH_PRICE,
  usdcOf,
  v1Fetch,
  v2Fetch,
  x402Books,
} from '../helpers/nano.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function listInDirectory(name: string, website: string): Promise<{ handle: string; email: string }> {
  const user = await registerUser(server, { name });
  const patch = await server.request('PATCH', '/account', { key: user.key, body: { discoverable: true, website } });
  expect(patch.status).toBe(200);
  return { handle: user.handle, email: user.email };
}

describe('status document', () => {
  it('is served at /nano and /.well-known/x402 with prices as decimal strings', async () => {
    for (const path of ['/nano', '/.well-known/x402']) {
      const response = await server.request('GET', path);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 'ok',
        service: 'peerpay',
        protocol: 'x402',
        version: 1,
        network: 'eip155:137',
        asset: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        payTo: payToOf(server),
        endpoints: {
          'GET /nano/search': { price: '0.001', params: ['q', 'website'] },
          'GET /nano/lookup': { price: '0.0001', params: ['email', 'handle'] },
          'GET /nano/quote': { price: '0.0001', params: ['amount', 'currency', 'action'] },
        },
        docs: `${server.deps.config.publicUrl}/docs`,
      });
    }
  });

  it('names the hot wallet as payTo by default', () => {
    expect(payToOf(server)).toBe(server.deps.wallets.hotWallet.address);
  });
});

describe('402 without payment', () => {
  it('answers the v1 body and the v2 PAYMENT-REQUIRED header', async () => {
    const response = await server.request('GET', '/nano/search?q=ann');
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({ x402Version: 1, code: 'payment_required', status: 402 });
    expect(typeof response.body.error).toBe('string');
    expect(response.body.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'polygon',
        maxAmountRequired: '1000',
        resource: `${server.deps.config.publicUrl}/nano/search?q=ann`,
        description: expect.any(String),
        mimeType: 'application/json',
        outputSchema: {},
        payTo: payToOf(server),
        maxTimeoutSeconds: 60,
        asset: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        extra: { name: 'USD Coin', version: '2' },
      },
    ]);
    const v2 = decodeBase64Json(response.headers.get('payment-required'));
    expect(v2).toMatchObject({
      x402Version: 2,
      resource: { url: `${server.deps.config.publicUrl}/nano/search?q=ann`, mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:137',
          amount: '1000',
          asset: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
          payTo: payToOf(server),
          maxTimeoutSeconds: 60,
          extra: { name: 'USD Coin', version: '2' },
        },
      ],
    });
  });

  it('states each endpoint’s own price', async () => {
    expect((await server.request('GET', '/nano/lookup?handle=PA-AAAAAAAA')).body.accepts[0].maxAmountRequired).toBe('100');
    expect((await server.request('GET', '/nano/quote?amount=10')).body.accepts[0].maxAmountRequired).toBe('100');
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/openapi.json')).body;
    for (const path of ['/nano/search', '/nano/lookup', '/nano/quote']) {
      expect(Object.keys(doc.paths[path].get.responses)).toEqual(expect.arrayContaining(['200', '400', '402']));
    }
    expect(doc.paths['/nano'].get.responses['200']).toBeDefined();
  });
});

describe.each([
  { version: 'v1 (x402-fetch)', client: (payer: any) => v1Fetch(payer), header: 'x-payment-response', network: 'polygon', nameTag: 'Vone' },
  {
    version: 'v2 (@x402/fetch)',
    client: (payer: any) => v2Fetch(server, payer),
    header: 'payment-response',
    network: 'eip155:137',
    nameTag: 'Vtwo',
  },
])('paid with $version', ({ client, header, network, nameTag }) => {
  it('pays /nano/search: the payer loses exactly 0.001 USDC, payTo gains it, the answer carries the settlement', async () => {
    const listed = await listInDirectory(`Zelda Searchable ${nameTag}`, 'https://www.zelda-example.org/about');
    const payer = await fundedPayer(server);
    const payTo = payToOf(server);
    const [payerBefore, payToBefore, books] = [await usdcOf(server, payer.address), await usdcOf(server, payTo), await x402Books(server)];

    const response = await client(payer)(
      `${server.url}/nano/search?q=${encodeURIComponent(`zelda searchable ${nameTag}`)}&website=zelda-example.org`,
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.results).toEqual([
      { handle: listed.handle, name: `Zelda Searchable ${nameTag}`, website: 'https://www.zelda-example.org/about' },
    ]);
    expect(JSON.stringify(body)).not.toContain('@');

    const settlement =
      header === 'x-payment-response'
        ? decodeXPaymentResponse(response.headers.get(header)!)
        : decodePaymentResponseHeader(response.headers.get(header)!);
    expect(settlement).toMatchObject({ success: true, network, payer: payer.address });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await server.deps.chain.chain.getTransactionOutcome(settlement.transaction as `0x${string}`))?.status).toBe('success');

    expect(await usdcOf(server, payer.address)).toBe(payerBefore - SEARCH_PRICE);
    expect(await usdcOf(server, payTo)).toBe(payToBefore + SEARCH_PRICE);
    expect(await nativeOf(server, payer.address)).toBe(0n);
    const after = await x402Books(server);
    expect(after.settled).toBe(books.settled + 1);
    expect(after.revenue).toBe(books.revenue + SEARCH_PRICE);
    expect(after.custody).toBe(books.custody - SEARCH_PRICE);
  });

  it('pays /nano/lookup (found and not found) at 0.0001 USDC each', async () => {
    const target = await registerUser(server, { name: 'Lookup Target' });
    const payer = await fundedPayer(server);
    const pay = client(payer);
    const before = await usdcOf(server, payer.address);

    const found = await pay(`${server.url}/nano/lookup?email=${encodeURIComponent(target.email)}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ found: true, handle: target.handle, agentHandle: target.handle, firstName: 'Lookup' });
    expect(found.headers.get(header)).toBeTruthy();

    const missing = await pay(`${server.url}/nano/lookup?handle=PA-ZZZZ9999`);
    expect(missing.status).toBe(200);
    expect(await missing.json()).toEqual({ found: false });
    expect(missing.headers.get(header)).toBeTruthy();

    expect(await usdcOf(server, payer.address)).toBe(before - 2n * LOOKUP_PRICE);
  });

  it('pays /nano/quote at 0.0001 USDC, formatted as each rail formats it', async () => {
    const payer = await fundedPayer(server);
    const pay = client(payer);
    const before = await usdcOf(server, payer.address);

    const stable = await pay(`${server.url}/nano/quote?amount=10&currency=USDC&action=transfer`);
    expect(stable.status).toBe(200);
    expect(await stable.json()).toEqual({
      action: 'transfer',
      amount: 10,
      fee: 0.149,
      feeRate: '1.49%',
      recipientReceives: 9.851,
      currency: 'USDC',
    });

    const fiat = await pay(`${server.url}/nano/quote?amount=100&currency=EUR&action=instant`);
    expect(fiat.status).toBe(200);
    expect(await fiat.json()).toEqual({
      action: 'instant',
      amount: '100.00',
      fee: '2.49',
      feeRate: '2.49%',
      totalDeducted: '102.49',
      recipientReceives: '100.00',
      currency: 'EUR',
    });

    expect(await usdcOf(server, payer.address)).toBe(before - 2n * QUOTE_PRICE);
  });
});

describe('quotes', () => {
  it.each([
    [
      'amount=5&currency=EURC&action=withdraw',
      { action: 'withdraw', amount: 5, fee: 0.0745, feeRate: '1.49%', recipientReceives: 4.9255, currency: 'EURC' },
    ],
    [
      'amount=1000&currency=JPY&action=ach',
      { action: 'ach', amount: '1000', fee: '8', feeRate: '0.8%', totalDeducted: '1008', recipientReceives: '1000', currency: 'JPY' },
    ],
    // The smallest instant transfer (its total reaches the 0.50 minimum charge); its fee rounds to 0.01.
    [
      'amount=0.49&currency=usd&action=instant',
      {
        action: 'instant',
        amount: '0.49',
        fee: '0.01',
        feeRate: '2.49%',
        totalDeducted: '0.50',
        recipientReceives: '0.49',
        currency: 'USD',
      },
    ],
    // 0.8% of 0.49 rounds to 0.00; every fee is at least one minor unit.
    [
      'amount=0.49&currency=USD&action=ach',
      { action: 'ach', amount: '0.49', fee: '0.01', feeRate: '0.8%', totalDeducted: '0.50', recipientReceives: '0.49', currency: 'USD' },
    ],
    ['amount=2.5', { action: 'transfer', amount: 2.5, fee: 0.03725, feeRate: '1.49%', recipientReceives: 2.46275, currency: 'USDC' }],
  ])('%s', async (query, expected) => {
    const payer = await fundedPayer(server);
    const response = await v1Fetch(payer)(`${server.url}/nano/quote?${query}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected);
  });
});

describe('the books', () => {
  it('keep the ledger balanced', async () => {
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});
