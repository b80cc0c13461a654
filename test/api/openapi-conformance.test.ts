// What the service sends matches what GET /openapi.json says, operation by operation. Every
// operation of the document has a case in CASES, openapi-conformance-cases.ts (a new operation without one fails the first
// test, and so does a case for an operation the document no longer has); each case drives the
// sandbox service with real registered users through at least one success and one refusal. Every
// answer, of the case's own calls and of the calls that set them up, is checked against the
// operation it reached: the status is documented, the content type is the documented one, the
// body validates (ajv, formats included) against the documented schema, and a problem's `code`
// is one the document lists for that operation and status, its Retry-After, WWW-Authenticate and
// PAYMENT-REQUIRED headers documented (openapi-support.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDeposits } from '../../src/stablecoin/deposits/deposit-watcher.js';
import { registerUser, startTestServer, type TestResponse, type TestServer, type TestUser } from '../helpers/test-server.js';
import { CASES, LIVE_CASES, get, post, type World } from './openapi-conformance-cases.js';
import { expectConforms, perform, runCase, targetOf, type Target } from './openapi-support.js';

let server: TestServer;
let target: Target;
let world: World;

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
    RATE_LIMIT_CHECK_PER_MINUTE: '100000',
  });
  target = await targetOf(server);
  const [alice, bob] = [await registerUser(server, { name: 'Alice Conformance' }), await registerUser(server, { name: 'Bob Conformance' })];
  world = { alice, bob, fresh: () => registerUser(server), send: (call) => perform(target, call) };
  await fundWithUsdc(alice, 100);
  // The hot wallet pays withdrawals out; the card lets alice pay instantly.
  const { deps } = server;
  await deps.chain.sandboxChain!.mint({
    token: deps.chain.tokens.USDC,
    minter: deps.wallets.sandboxTokenOwner,
    to: deps.wallets.hotWallet.address,
    amount: 1_000_000_000n,
  });
  await setUpCard(alice);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function fundWithUsdc(user: TestUser, amount: number): Promise<void> {
  await perform(target, post('/test-helpers/stablecoin/faucet', 'none', { address: user.depositAddress, amount, currency: 'USDC' }, 200));
  for (let round = 0; round < 100; round++) {
    await watchDeposits(server.deps);
    const balance = await perform(target, get('/stablecoin/balance', user, 200));
    if (Number(balance.body.USDC) >= amount) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the faucet deposit was not credited');
}

async function setUpCard(user: TestUser): Promise<void> {
  const link = await perform(target, post('/agent/setup-link', user, undefined, 200));
  const page = await fetch(server.url + new URL(link.body.url).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=succeed',
  });
  expect(page.status).toBe(200);
}

describe('every operation of the OpenAPI document', () => {
  it('has a case here, and every case is an operation of the document', () => {
    const documented = target.operations.map((o) => o.operationId).sort();
    const cased = Object.keys(CASES).sort();
    expect(
      documented.filter((id) => !cased.includes(id)),
      'operations without a conformance case',
    ).toEqual([]);
    expect(
      cased.filter((id) => !documented.includes(id)),
      'cases of operations the document does not have',
    ).toEqual([]);
    // Live-only operations are run by openapi-conformance-live.test.ts.
    expect(
      Object.keys(LIVE_CASES).filter((id) => documented.includes(id)),
      'live cases of operations sandbox mode serves',
    ).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s answers what the document says, on success and on refusal', async (operationId) => {
    const op = target.operations.find((o) => o.operationId === operationId);
    await runCase(target, op, await CASES[operationId]!(world));
  });
});

describe('the conformance check itself', () => {
  it('refuses an answer whose status, content type, body or code the document does not list', () => {
    const op = target.operations.find((o) => o.operationId === 'getStablecoinBalance')!;
    const answer = (status: number, type: string, body: unknown): TestResponse => ({
      status,
      headers: new Headers({ 'content-type': type }),
      body,
      text: JSON.stringify(body),
    });
    const problem = (status: number, code: string) => ({ type: 'https://peerpay.dev/problems/x', title: 'X', status, detail: 'x', code });
    expect(() => expectConforms(target, op, answer(200, 'application/json', { USDC: '1.000000', EURC: '0.000000' }))).not.toThrow();
    expect(() => expectConforms(target, op, answer(404, 'application/problem+json', problem(404, 'not_found')))).toThrow(/does not list/);
    expect(() => expectConforms(target, op, answer(200, 'text/plain', 'ok'))).toThrow();
    expect(() => expectConforms(target, op, answer(200, 'application/json', { USDC: 1, EURC: '0.000000' }))).toThrow(/does not match/);
    expect(() => expectConforms(target, op, answer(400, 'application/problem+json', problem(400, 'insufficient_balance')))).toThrow();
  });
});
