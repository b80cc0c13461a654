// A NUL character (U+0000) in any request text is a 400 problem: PostgreSQL cannot store it, and
// every one of these was a 500 before.
import { afterAll, beforeAll, it } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  alice = await registerUser(server);
  bob = await registerUser(server);
});
afterAll(async () => {
  await server.close();
});

it.each([
  ['PATCH', '/account', { name: 'x\u0000y' }],
  ['POST', '/agent/register', { email: 'a\u0000@example.com', password: 'correct horse battery', name: 'A' }],
  ['POST', '/transfers', { recipientHandle: 'PA-\u0000', amount: 1, currency: 'USD' }],
  ['POST', '/agent/transfer', { to: 'b\u0000@example.com', amount: 1, currency: 'USDC' }],
  ['POST', '/stablecoin/transfer', { recipientEmail: 'b\u0000@example.com', amount: 1, currency: 'USDC' }],
])('refuses a NUL in the body of %s %s', async (method, path, body) => {
  expectProblem(await server.request(method, path, { key: alice.key, body }), 400, 'invalid_request');
});

it('refuses a NUL in a transfer note, before any money moves', async () => {
  expectProblem(
    await server.request('POST', '/transfers', {
      key: alice.key,
      body: { recipientHandle: bob.handle, amount: 1, currency: 'USD', note: 'hi\u0000' },
    }),
    400,
    'invalid_request',
  );
});

it.each([
  '/agents/check?email=a%00@example.com',
  '/agents/lookup?handle=PA-%00',
  '/stablecoin/lookup?email=a%00@example.com',
  '/agent/transfer/quote?to=a%00@example.com&amount=1',
  '/nano/search?q=a%00b',
  '/nano/lookup?email=a%00@example.com',
])('refuses a NUL in the query of GET %s', async (path) => {
  expectProblem(await server.request('GET', path, { key: alice.key }), 400, 'invalid_request');
});
