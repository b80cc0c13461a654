// What peerpay says, in the reader's terms: a request without a key is told the key is missing (a
// wrong key keeps its own message); a 402 states the price as a decimal, as GET /nano does; a link
// page says how long it still works and when, in UTC; the document's example refusals name only
// the fields of their own operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiryText } from '../../src/http/views/expiry-text.js';
import { usdcText } from '../../src/nano/pricing.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { linkPath, newLink } from '../helpers/fiat.js';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = await registerUser(server);
});
afterAll(async () => {
  await server.close();
});

describe('401 without a key', () => {
  it('says "missing API key" when none is sent, and keeps its message for a wrong one', async () => {
    for (const [method, path] of [
      ['GET', '/balance'],
      ['POST', '/agent/setup-link'],
      ['GET', '/events'],
    ] as const) {
      const missing = expectProblem(await server.request(method, path), 401, 'unauthorized');
      expect(missing.detail).toMatch(/^Missing API key/);
      const wrong = expectProblem(await server.request(method, path, { key: 'pa_live_wrong' }), 401, 'unauthorized');
      expect(wrong.detail).toBe('The API key is invalid or has been revoked.');
    }
    const balance = expectProblem(
      await server.request('GET', '/nano/lookup?handle=PA-AAAAAAAA', { headers: { 'x-payment-source': 'balance' } }),
      401,
      'unauthorized',
    );
    expect(balance.detail).toMatch(/^Missing API key/);
  });
});

describe('the 402 of an x402 endpoint', () => {
  it('states the price as a decimal, as GET /nano does; the x402 members keep counting base units', async () => {
    const status = (await server.request('GET', '/nano')).body;
    for (const [path, key] of [
      ['/nano/lookup?handle=PA-AAAAAAAA', 'GET /nano/lookup'],
      ['/nano/search?q=ann', 'GET /nano/search'],
    ] as const) {
      const problem = expectProblem(await server.request('GET', path), 402, 'payment_required');
      const price: string = status.endpoints[key].price;
      expect(problem.price).toBe(price);
      expect(problem.detail).toBe(`${key} costs ${price} USDC: pay with x402, or send X-Payment-Source: balance with an API key.`);
      expect(problem.detail).not.toMatch(/base units/);
      // The protocol's own field is atomic units, as x402 clients read it.
      expect(problem.accepts[0].maxAmountRequired).toBe(String(Math.round(Number(price) * 1e6)));
    }
  });

  it('names amounts of refused payments as decimals too', () => {
    expect(usdcText(100n)).toBe('0.0001 USDC (100 base units)');
    expect(usdcText(1_000_000n)).toBe('1 USDC (1000000 base units)');
  });
});

describe('link pages', () => {
  it('say when the link expires in the reader’s terms: how long from now, and the time in UTC', async () => {
    const link = await newLink(server, user, '/agent/setup-link');
    const utc = `${link.expiresAt.slice(0, 16).replace('T', ' ')} UTC`;
    const page = async () => (await fetch(server.url + linkPath(link.url))).text();
    expect(await page()).toContain(`This link works once and expires in 23 hours (${utc}).`);
    await server.deps.sandboxClock!.advance(22n * 3600n * 1000n);
    expect(await page()).toMatch(new RegExp(`expires in (119|1[01][0-9]) minutes \\(${utc}\\)`));
    const payout = await newLink(server, user, '/agent/connect-link');
    expect(await (await fetch(server.url + linkPath(payout.url))).text()).toMatch(/expires in 9 minutes \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
  });

  it('count down in minutes, hours, then days, never promising more than is left', () => {
    const at = new Date('2030-01-10T12:00:30.000Z');
    const before = (ms: number) => expiryText(at, new Date(at.getTime() - ms));
    expect(before(30_000)).toBe('in less than a minute (2030-01-10 12:00 UTC)');
    expect(before(61_000)).toBe('in 1 minute (2030-01-10 12:00 UTC)');
    expect(before(2 * 3600_000 - 1)).toBe('in 119 minutes (2030-01-10 12:00 UTC)');
    expect(before(24 * 3600_000 - 1)).toBe('in 23 hours (2030-01-10 12:00 UTC)');
    expect(before(3 * 24 * 3600_000)).toBe('in 3 days (2030-01-10 12:00 UTC)');
  });
});

describe('the OpenAPI examples', () => {
  type Json = Record<string, any>;
  const resolve = (document: Json, example: Json): Json =>
    example.$ref ? document.components.examples[example.$ref.split('/').pop()] : example;
  const fieldsOf = (schema: Json | undefined): string[] => Object.keys(schema?.properties ?? {});

  it('POST /agent/setup-link names only its own fields (it has none)', async () => {
    const document = (await server.request('GET', '/openapi.json')).body;
    const op = document.paths['/agent/setup-link'].post;
    const examples = Object.values(op.responses as Json).flatMap((response: Json) =>
      Object.values((response.content ?? {}) as Record<string, Json>).flatMap((media) => [
        ...(media.example ? [media.example] : []),
        ...Object.values(media.examples ?? {}).map((e: any) => resolve(document, e).value),
      ]),
    );
    const text = JSON.stringify(examples);
    for (const foreign of ['paymentMethod', 'amount', 'recipientHandle', 'currency']) expect(text).not.toContain(foreign);
    const refusal = examples.find((e) => e.code === 'invalid_request');
    expect(refusal).toMatchObject({ detail: 'The request body must be an object.', errors: [{ pointer: '#' }] });
  });

  it('every operation’s invalid_request example names only the operation’s own body fields and parameters', async () => {
    const document = (await server.request('GET', '/openapi.json')).body;
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const media = op.responses?.['400']?.content?.['application/problem+json'];
        if (!media?.examples?.invalid_request) continue;
        const example = resolve(document, media.examples.invalid_request).value;
        const bodyFields = fieldsOf(op.requestBody?.content?.['application/json']?.schema);
        const parameters = (op.parameters ?? []).map((p: Json) => p.name);
        for (const error of example.errors ?? []) {
          if (error.pointer !== undefined && error.pointer !== '#')
            expect(bodyFields, `${method} ${path}`).toContain(error.pointer.slice(2).split('/')[0]);
          if (error.parameter !== undefined) expect(parameters, `${method} ${path}`).toContain(error.parameter);
        }
      }
    }
  });
});
