import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectProblem, startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_REGISTER_PER_MINUTE: '3', RATE_LIMIT_CHECK_PER_MINUTE: '5' });
});
afterAll(async () => {
  await server?.close();
});

it('limits registrations per client address with 429, Retry-After and RateLimit headers', async () => {
  const statuses: number[] = [];
  const responses: TestResponse[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await server.request('POST', '/agent/register', {
      body: { email: `rl${i}-${Date.now()}@example.com`, password: 'password123', name: 'R' },
    });
    responses.push(response);
    statuses.push(response.status);
  }
  expect(statuses).toEqual([201, 201, 201, 429]);
  const last = responses.at(-1);
  if (!last) throw new Error('no answer');
  expectProblem(last, 429, 'rate_limited');
  expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(last.headers.get('ratelimit-limit')).toBe('3');
  expect(last.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
  expect(last.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
});

it('limits account checks separately from registrations', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await server.request('GET', '/agents/check?handle=PA-ZZZZZZZZ')).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  expect((await server.request('GET', '/health')).status).toBe(200);
});
