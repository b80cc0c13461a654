// @peerpay/client against a sandbox service: its generated files match the live OpenAPI document,
// answers are typed data, refusals are PeerpayError with the problem document, decimal-string
// amounts arrive exact, and a call that moves money keeps its Idempotency-Key across retries, so
// that a retry after a lost answer moves nothing twice. Retry rules are checked on a scripted fetch.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPeerpayClient, isPeerpayError, PeerpayError, serializeBody } from '@peerpay/client';
import { GENERATED_FILES, generateClientFiles } from '../../scripts/client-types.js';
import { startClientsServer, type ClientsServer } from './support.js';

let env: ClientsServer;
beforeAll(async () => {
  env = await startClientsServer();
});
afterAll(async () => {
  await env?.close();
});

describe('@peerpay/client', () => {
  it('is generated from the service’s OpenAPI document (run `npm run generate:client` when this fails)', async () => {
    const document = await (await fetch(`${env.url}/openapi.json`)).json();
    const files = await generateClientFiles(document);
    expect(files.types, GENERATED_FILES.types).toBe(fs.readFileSync(GENERATED_FILES.types, 'utf8'));
    expect(files.operations, GENERATED_FILES.operations).toBe(fs.readFileSync(GENERATED_FILES.operations, 'utf8'));
  });

  it('answers typed data and throws PeerpayError with the problem document', async () => {
    const alice = await env.user();
    const bob = await env.user();
    const quote = await alice.api.quoteTransfer({ query: { recipientHandle: bob.handle, amount: '10', currency: 'USD' } });
    expect(quote).toMatchObject({ amount: '10.00', fee: '0.25', totalDeducted: '10.25', recipientHandle: bob.handle });

    const refused = await alice.api
      .createTransfer({ body: { recipientHandle: bob.handle, amount: '10', currency: 'USD' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PeerpayError);
    expect(refused).toMatchObject({ status: 402, code: 'card_setup_required', operationId: 'createTransfer' });
    expect((refused as PeerpayError).problem).toMatchObject({
      status: 402,
      code: 'card_setup_required',
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect(String(refused)).not.toContain(alice.key);

    const anonymous = createPeerpayClient({ baseUrl: env.url, apiKey: 'pa_live_notAKey' });
    await expect(anonymous.getBalance()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('sends decimal-string amounts exactly and reuses the Idempotency-Key when it retries after a lost answer', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 50_000_000n);
    const keys: string[] = [];
    let lost = 0;
    const flaky = createPeerpayClient({
      baseUrl: env.url,
      apiKey: alice.key,
      baseRetryDelayMs: 1,
      // The first answer of each call is lost after the service acted on it.
      fetch: async (input, init) => {
        keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
        const response = await fetch(input, init);
        if (lost++ === 0) throw new TypeError('fetch failed: connection reset');
        return response;
      },
    });
    const sent = await flaky.createAgentTransfer({ body: { to: bob.handle, amount: '10.123456', currency: 'USDC' } });
    expect(sent).toMatchObject({ amount: 10.123456, status: 'complete' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // Moved once: 50 - 10.123456.
    expect(await alice.api.getStablecoinBalance()).toMatchObject({ USDC: '39.876544' });
  });
});

describe('retries', () => {
  const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ type: 'about:blank', title: code, status, detail: code, code }), {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    });

  function scripted(answers: (() => Response)[]) {
    const calls: { method: string; key: string | null; at: number }[] = [];
    const fetchImpl = async (_input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ method: String(init?.method), key: new Headers(init?.headers).get('idempotency-key'), at: Date.now() });
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next();
    };
    return { calls, fetch: fetchImpl };
  }
  const ok = () =>
    new Response(JSON.stringify({ transfer: { id: 'tr_1' } }), { status: 200, headers: { 'content-type': 'application/json' } });

  it('retries 503 and 429 on a money call with the same key, honouring Retry-After', async () => {
    const s = scripted([() => problem(503, 'service_unavailable', { 'retry-after': '1' }), () => problem(429, 'rate_limited'), ok]);
    const client = createPeerpayClient({ baseUrl: 'http://peerpay.test', apiKey: 'pa_live_x', fetch: s.fetch, baseRetryDelayMs: 1 });
    await client.createTransfer({ body: { recipientHandle: 'PA-AAAAAAAA', amount: 1, currency: 'USD' } });
    expect(s.calls.map((c) => c.key)).toEqual([s.calls[0]!.key, s.calls[0]!.key, s.calls[0]!.key]);
    expect(s.calls[1]!.at - s.calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after maxRetries, and when Retry-After is longer than it waits', async () => {
    const s = scripted([() => problem(500, 'internal_error'), () => problem(500, 'internal_error'), () => problem(500, 'internal_error')]);
    const client = createPeerpayClient({ baseUrl: 'http://peerpay.test', fetch: s.fetch, maxRetries: 2, baseRetryDelayMs: 1 });
    await expect(client.getHealth()).rejects.toMatchObject({ code: 'internal_error', status: 500 });
    expect(s.calls).toHaveLength(3);

    const long = scripted([() => problem(429, 'rate_limited', { 'retry-after': '120' })]);
    const patient = createPeerpayClient({ baseUrl: 'http://peerpay.test', fetch: long.fetch });
    await expect(patient.getHealth()).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 120 });
    expect(long.calls).toHaveLength(1);
  });

  it('does not wait out a limit: limit_exceeded is thrown at once with its members and Retry-After, even when it is short', async () => {
    const refusal = (retryAfter: string) => () =>
      new Response(
        JSON.stringify({
          type: 'about:blank',
          title: 'Limit exceeded',
          status: 429,
          detail: 'over the limit',
          code: 'limit_exceeded',
          limit: '1000.00',
          window: 'day',
          remaining: '12.50',
        }),
        { status: 429, headers: { 'content-type': 'application/problem+json', 'retry-after': retryAfter } },
      );
    const s = scripted([refusal('2'), ok]);
    const client = createPeerpayClient({ baseUrl: 'http://peerpay.test', apiKey: 'pa_live_x', fetch: s.fetch, baseRetryDelayMs: 1 });
    const error = await client
      .createTransfer({ body: { recipientHandle: 'PA-AAAAAAAA', amount: '20', currency: 'USD' } })
      .catch((e: unknown) => e);
    expect(s.calls).toHaveLength(1);
    if (!isPeerpayError(error, 'limit_exceeded')) throw new Error(`not limit_exceeded: ${String(error)}`);
    expect(error.retryAfterSeconds).toBe(2);
    expect([error.problem.limit, error.problem.window, error.problem.remaining]).toEqual(['1000.00', 'day', '12.50']);
  });

  it('never repeats a 5xx or a lost answer of a call that is not idempotent', async () => {
    const s = scripted([() => problem(503, 'service_unavailable')]);
    const client = createPeerpayClient({ baseUrl: 'http://peerpay.test', apiKey: 'pa_live_x', fetch: s.fetch, baseRetryDelayMs: 1 });
    await expect(client.createCardSetupLink()).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]!.key).toBeNull();

    const lost = scripted([
      () => {
        throw new TypeError('fetch failed');
      },
    ]);
    const client2 = createPeerpayClient({ baseUrl: 'http://peerpay.test', fetch: lost.fetch, baseRetryDelayMs: 1 });
    await expect(client2.registerAgent({ body: { email: 'a@example.com', password: 'correct horse battery' } })).rejects.toMatchObject({
      code: 'network_error',
      status: 0,
    });
    expect(lost.calls).toHaveLength(1);
  });

  it('writes decimal-string amounts as exact JSON numbers and leaves other strings alone', () => {
    expect(serializeBody({ amount: '10.10', note: 'amount:0', to: 'PA-1' })).toBe('{"amount":10.10,"note":"amount:0","to":"PA-1"}');
    expect(serializeBody({ amount: 'ten' })).toBe('{"amount":"ten"}');
  });
});
