// What each rate limit counts: registrations and account checks once per address across all their
// paths; the default limit every request of a key (malformed ones too) and every request of an
// address that has no valid key (guessed keys too).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectProblem, startTestServer, type TestServer } from '../helpers/test-server.js';
import { issueApiKey } from '../../src/accounts/api-keys.js';

let server: TestServer;
let key = '';
let handle = '';
beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_REGISTER_PER_MINUTE: '2',
    RATE_LIMIT_CHECK_PER_MINUTE: '2',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '3',
  });
});
afterAll(async () => {
  await server?.close();
});

const registration = () => ({
  email: `budget-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'password123',
  name: 'B',
});

it('counts /agent/register and /stablecoin/register against one budget per address', async () => {
  const first = await server.request('POST', '/agent/register', { body: registration() });
  const second = await server.request('POST', '/stablecoin/register', { body: registration() });
  expect([first.status, second.status]).toEqual([201, 201]);
  [key, handle] = [first.body.apiKey, first.body.agentHandle];
  expectProblem(await server.request('POST', '/agent/register', { body: registration() }), 429, 'rate_limited');
  expectProblem(await server.request('POST', '/stablecoin/register', { body: registration() }), 429, 'rate_limited');
});

it('counts /agents/check, /agents/lookup and /stablecoin/lookup against one budget per address, with or without a key', async () => {
  expect((await server.request('GET', `/agents/check?handle=${handle}`)).status).toBe(200);
  expect((await server.request('GET', `/agents/lookup?handle=${handle}`, { key })).status).toBe(200);
  expectProblem(await server.request('GET', `/stablecoin/lookup?handle=${handle}`, { key }), 429, 'rate_limited');
  expectProblem(await server.request('GET', `/agents/check?handle=${handle}`), 429, 'rate_limited');
});

it('counts a key’s malformed requests, and refuses them with 429 once the key’s budget is spent', async () => {
  for (let i = 0; i < 3; i++) expect((await server.request('GET', '/balance', { key })).status).toBe(200);
  expectProblem(
    await server.request('POST', '/agent/transfer', { key, rawBody: '{"to":', headers: { 'content-type': 'application/json' } }),
    429,
    'rate_limited',
  );
  expectProblem(await server.request('POST', '/agent/transfer', { key, body: { amount: 'all' } }), 429, 'rate_limited');
});

it('counts requests with keys that are not valid against the address that sends them', async () => {
  for (let i = 0; i < 3; i++) expectProblem(await server.request('GET', '/balance', { key: issueApiKey().key }), 401, 'unauthorized');
  const limited = expectProblem(await server.request('GET', '/balance', { key: issueApiKey().key }), 429, 'rate_limited');
  expect(limited.status).toBe(429);
  expectProblem(await server.request('GET', '/balance'), 429, 'rate_limited');
});
