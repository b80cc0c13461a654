// What the service sends matches what GET /openapi.json says, operation by operation. Every
// operation of the document has a case in CASES (a new operation without one fails the first
// test, and so does a case for an operation the document no longer has); each case drives the
// sandbox service with real registered users through at least one success and one refusal. Every
// answer, of the case's own calls and of the calls that set them up, is checked against the
// operation it reached: the status is documented, the content type is the documented one, the
// body validates (ajv, formats included) against the documented schema, and a problem's `code`
// is one the document lists for that operation and status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDeposits } from '../../src/stablecoin/deposits/deposit-watcher.js';
import { registerUser, startTestServer, type TestResponse, type TestServer, type TestUser } from '../helpers/test-server.js';
import { documentValidators, errorText, operationsOf, pointer, type DocumentedOperation } from './openapi-support.js';

/** Not a peerpay address: where withdrawals and faucet mints go. */
const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';
const NOBODY = 'PA-ZZZZZZZZ';
const BAD_KEY = 'pa_live_notAKeyAtAll';

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  /** A user's key, a bad key, or none (the default for public operations is none too). */
  as?: TestUser | 'bad' | 'none';
  body?: unknown;
  /** A body sent as is, with its content type. */
  raw?: { text: string; type: string };
  headers?: Record<string, string>;
  status: number;
  code?: string;
}

interface Case {
  success: Call[];
  errors: Call[];
}

interface World {
  alice: TestUser;
  bob: TestUser;
  /** A user of its own, for operations that change keys or passwords. */
  fresh(): Promise<TestUser>;
  /** A call checked against the operation it reaches (for set-up steps); throws unless it answered `status`. */
  send(call: Call): Promise<TestResponse>;
}

const q = encodeURIComponent;
const post = (path: string, as: Call['as'], body: unknown, status: number, code?: string): Call => ({ method: 'POST', path, as, body, status, ...(code ? { code } : {}) });
const get = (path: string, as: Call['as'], status: number, code?: string): Call => ({ method: 'GET', path, as, status, ...(code ? { code } : {}) });
const NUL_QUERY = '?x=%00';

const CASES: Record<string, (w: World) => Case | Promise<Case>> = {
  getHealth: () => ({ success: [get('/health', 'none', 200)], errors: [get(`/health${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),
  getLiveness: () => ({ success: [get('/health/live', 'none', 200)], errors: [get(`/health/live${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),
  getReadiness: () => ({ success: [get('/health/ready', 'none', 200)], errors: [get(`/health/ready${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),

  registerAgent: () => {
    const email = `conformance-agent-${Date.now()}@example.com`;
    return {
      success: [post('/agent/register', 'none', { email, password: 'correct horse battery', name: 'Grace Hopper' }, 201), post('/agent/register', 'none', { email, password: 'correct horse battery' }, 200)],
      errors: [
        post('/agent/register', 'none', { email, password: 'wrong horse battery' }, 401, 'invalid_credentials'),
        post('/agent/register', 'none', { email: 'grace@', password: 'correct horse battery', name: 'Grace' }, 400, 'invalid_email'),
        post('/agent/register', 'none', { email }, 400, 'invalid_request'),
      ],
    };
  },
  registerStablecoinAccount: () => ({
    success: [post('/stablecoin/register', 'none', { email: `conformance-stablecoin-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Katherine Johnson' }, 201)],
    errors: [
      { method: 'POST', path: '/stablecoin/register', raw: { text: '{"email":', type: 'application/json' }, status: 400, code: 'malformed_json' },
      { method: 'POST', path: '/stablecoin/register', raw: { text: 'email=a', type: 'text/plain' }, status: 415, code: 'unsupported_media_type' },
    ],
  }),
  checkAccount: ({ alice }) => ({
    success: [get(`/agents/check?email=${q(alice.email)}`, 'none', 200), get(`/agents/check?handle=${NOBODY}`, alice, 200)],
    errors: [get(`/agents/check?email=${q(alice.email)}&handle=${alice.handle}`, 'none', 400, 'invalid_request'), get(`/agents/check?handle=${alice.handle}`, 'bad', 401, 'unauthorized')],
  }),
  lookupAgent: ({ alice, bob }) => ({
    success: [get(`/agents/lookup?handle=${bob.handle}`, alice, 200)],
    errors: [get(`/agents/lookup?handle=${NOBODY}`, alice, 404, 'recipient_not_found'), get(`/agents/lookup?handle=${bob.handle}`, 'none', 401, 'unauthorized')],
  }),
  lookupStablecoinRecipient: ({ alice, bob }) => ({
    success: [get(`/stablecoin/lookup?email=${q(bob.email)}`, alice, 200)],
    errors: [get('/stablecoin/lookup', alice, 400, 'invalid_request'), get('/stablecoin/lookup?email=not-an-email', alice, 400, 'invalid_email')],
  }),

  revokeApiKey: async ({ fresh }) => {
    const user = await fresh();
    return { success: [post('/account/revoke-key', user, undefined, 200)], errors: [post('/account/revoke-key', user, undefined, 401, 'unauthorized')] };
  },
  changePassword: async ({ fresh }) => {
    const user = await fresh();
    return {
      success: [post('/account/password', user, { currentPassword: user.password, newPassword: 'staple battery horse' }, 200)],
      errors: [
        post('/account/password', user, { currentPassword: 'not the password', newPassword: 'another battery horse' }, 401, 'invalid_credentials'),
        post('/account/password', user, { currentPassword: 'staple battery horse', newPassword: 'short' }, 400, 'invalid_request'),
      ],
    };
  },
  revokeAllApiKeys: async ({ fresh }) => {
    const user = await fresh();
    return { success: [post('/account/revoke-all-keys', user, undefined, 200)], errors: [post('/account/revoke-all-keys', user, undefined, 401, 'unauthorized')] };
  },
  getAccount: ({ alice }) => ({ success: [get('/account', alice, 200)], errors: [get('/account', 'bad', 401, 'unauthorized')] }),
  updateAccount: async ({ alice, bob, send }) => {
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    await send({ method: 'PATCH', path: '/account', as: bob, body: { phone }, status: 200 });
    return {
      success: [{ method: 'PATCH', path: '/account', as: alice, body: { website: 'https://alice.example.com', discoverable: true }, status: 200 }],
      errors: [
        { method: 'PATCH', path: '/account', as: alice, body: {}, status: 400, code: 'invalid_request' },
        { method: 'PATCH', path: '/account', as: alice, body: { phone }, status: 409, code: 'already_exists' },
      ],
    };
  },
  createStablecoinWallet: ({ alice }) => ({ success: [post('/stablecoin/wallet', alice, undefined, 200)], errors: [post('/stablecoin/wallet', 'none', undefined, 401, 'unauthorized')] }),

  createCardSetupLink: ({ bob }) => ({ success: [post('/agent/setup-link', bob, undefined, 200)], errors: [post('/agent/setup-link', bob, { card: '4242' }, 400, 'invalid_request')] }),
  createPayoutSetupLink: ({ bob }) => ({ success: [post('/agent/connect-link', bob, undefined, 200)], errors: [post('/agent/connect-link', 'bad', undefined, 401, 'unauthorized')] }),
  createBankDebitSetupLink: ({ bob }) => ({
    success: [post('/agent/bank-debit-link', bob, {}, 200)],
    errors: [{ method: 'POST', path: '/agent/bank-debit-link', as: bob, raw: { text: 'hello', type: 'text/plain' }, status: 415, code: 'unsupported_media_type' }],
  }),
  createTransfer: ({ alice, bob }) => {
    const send = (as: TestUser, body: object, status: number, code?: string, key?: string): Call => ({
      ...post('/transfers', as, body, status, code),
      ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
    });
    const key = `conformance-${Date.now()}`;
    return {
      success: [send(alice, { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'instant', note: 'Lunch' }, 200, undefined, key)],
      errors: [
        send(alice, { recipientHandle: bob.handle, amount: 11, currency: 'USD', paymentMethod: 'instant' }, 422, 'idempotency_key_reused', key),
        send(bob, { recipientHandle: alice.handle, amount: 10, currency: 'USD' }, 402, 'card_setup_required'),
        send(alice, { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'ach' }, 409, 'ach_setup_required'),
        send(alice, { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'wire' }, 400, 'invalid_request'),
        send(alice, { recipientHandle: NOBODY, amount: 10, currency: 'USD' }, 404, 'recipient_not_found'),
        send(alice, { recipientHandle: bob.handle, amount: 0.01, currency: 'USD' }, 400, 'amount_too_small'),
        send(alice, { recipientHandle: alice.handle, amount: 10, currency: 'USD' }, 400, 'self_transfer'),
      ],
    };
  },
  listTransfers: ({ alice }) => ({ success: [get('/transfers?limit=5', alice, 200)], errors: [get('/transfers?limit=0', alice, 400, 'invalid_request')] }),
  getBalance: ({ bob }) => ({ success: [get('/balance', bob, 200)], errors: [get('/balance', 'none', 401, 'unauthorized')] }),
  listTransactions: ({ alice }) => ({ success: [get('/transactions', alice, 200)], errors: [get('/transactions?cursor=not-a-cursor', alice, 400, 'invalid_request')] }),

  getDepositAddress: ({ alice }) => ({ success: [get('/stablecoin/deposit-address?chain=MATIC', alice, 200)], errors: [get('/stablecoin/deposit-address?chain=ETH', alice, 400, 'unsupported_chain')] }),
  createFundingLink: ({ alice }) => ({
    success: [post('/stablecoin/buy-session', alice, { amount: 50, currency: 'USDC' }, 200)],
    errors: [post('/stablecoin/buy-session', alice, { amount: 50, currency: 'DOGE' }, 400, 'unsupported_currency')],
  }),
  getStablecoinBalance: ({ alice }) => ({ success: [get('/stablecoin/balance', alice, 200)], errors: [get('/stablecoin/balance', 'bad', 401, 'unauthorized')] }),
  createAgentTransfer: ({ alice, bob }) => ({
    success: [post('/agent/transfer', alice, { to: bob.handle, amount: 1, currency: 'USDC' }, 200)],
    errors: [
      post('/agent/transfer', alice, { to: alice.handle, amount: 1, currency: 'USDC' }, 400, 'self_transfer'),
      post('/agent/transfer', alice, { to: NOBODY, amount: 1, currency: 'USDC' }, 404, 'recipient_not_found'),
      post('/agent/transfer', bob, { to: alice.email, amount: 50, currency: 'USDC' }, 400, 'insufficient_balance'),
    ],
  }),
  createStablecoinTransfer: ({ alice, bob }) => ({
    success: [post('/stablecoin/transfer', alice, { recipientEmail: bob.email, amount: 1, currency: 'usdc' }, 200)],
    errors: [post('/stablecoin/transfer', alice, { recipientEmail: 'bob', amount: 1, currency: 'USDC' }, 400, 'invalid_email')],
  }),
  quoteAgentTransfer: ({ alice, bob }) => ({
    success: [get(`/agent/transfer/quote?to=${bob.handle}&amount=10`, alice, 200)],
    errors: [get(`/agent/transfer/quote?to=${bob.handle}&amount=0.001`, alice, 400, 'amount_too_small'), get(`/agent/transfer/quote?to=${NOBODY}&amount=10`, alice, 404, 'recipient_not_found')],
  }),
  setWithdrawalAddress: ({ alice }) => ({
    success: [{ method: 'PUT', path: '/stablecoin/withdrawal-address', as: alice, body: { address: EXTERNAL }, status: 200 }],
    errors: [{ method: 'PUT', path: '/stablecoin/withdrawal-address', as: alice, body: { address: '0x1234' }, status: 400, code: 'invalid_address' }],
  }),
  getWithdrawalAddress: ({ alice }) => ({ success: [get('/stablecoin/withdrawal-address', alice, 200)], errors: [get('/stablecoin/withdrawal-address', 'bad', 401, 'unauthorized')] }),
  listStablecoinTransfers: ({ alice }) => ({ success: [get('/stablecoin/transfers?limit=10', alice, 200)], errors: [get('/stablecoin/transfers?limit=ten', alice, 400, 'invalid_request')] }),
  createWithdrawal: ({ alice }) => ({
    success: [post('/stablecoin/withdraw', alice, { amount: 2, currency: 'USDC', address: EXTERNAL }, 200)],
    errors: [post('/stablecoin/withdraw', alice, { amount: 0.5, currency: 'USDC', address: EXTERNAL }, 400, 'amount_too_small')],
  }),

  getNanoStatus: () => ({ success: [get('/nano', 'none', 200)], errors: [get(`/nano${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),
  getX402Discovery: () => ({ success: [get('/.well-known/x402', 'none', 200)], errors: [get(`/.well-known/x402${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),
  searchNanoDirectory: ({ alice }) => ({
    success: [{ ...get('/nano/search?q=alice', alice, 200), headers: { 'X-Payment-Source': 'balance' } }],
    errors: [get('/nano/search?q=alice', 'none', 402, 'payment_required'), get('/nano/search', 'none', 400, 'invalid_request')],
  }),
  lookupNanoAccount: ({ alice, bob }) => ({
    success: [{ ...get(`/nano/lookup?handle=${bob.handle}`, alice, 200), headers: { 'X-Payment-Source': 'balance' } }],
    errors: [get(`/nano/lookup?handle=${bob.handle}`, 'none', 402, 'payment_required'), { ...get(`/nano/lookup?handle=${bob.handle}`, 'none', 401, 'unauthorized'), headers: { 'X-Payment-Source': 'balance' } }],
  }),
  quoteNanoFee: ({ alice }) => ({
    success: [{ ...get('/nano/quote?amount=10&action=instant&currency=EUR', alice, 200), headers: { 'X-Payment-Source': 'balance' } }],
    errors: [get('/nano/quote?amount=10', 'none', 402, 'payment_required'), get('/nano/quote?amount=10&action=steal', 'none', 400, 'invalid_request')],
  }),

  advanceSandboxClock: () => ({ success: [post('/test-helpers/clock/advance', 'none', { days: 1 }, 200)], errors: [post('/test-helpers/clock/advance', 'none', { days: 0 }, 400, 'invalid_request')] }),
  mintSandboxTokens: () => ({
    success: [post('/test-helpers/stablecoin/faucet', 'none', { address: EXTERNAL, amount: 1, currency: 'EURC' }, 200)],
    errors: [post('/test-helpers/stablecoin/faucet', 'none', { address: '0xdead', amount: 1, currency: 'EURC' }, 400, 'invalid_address')],
  }),
};

let server: TestServer;
let doc: any;
let operations: DocumentedOperation[];
let validatorAt: ReturnType<typeof documentValidators>;
let world: World;

/** The documented operation a request reaches, by method and path. */
function operationOf(method: string, path: string): DocumentedOperation | undefined {
  const pathname = new URL(path, 'http://peerpay.test').pathname;
  return operations.find((o) => o.method === method && o.path === pathname);
}

/** Fails unless the answer is one the document allows for the operation. */
function expectConforms(op: DocumentedOperation, response: TestResponse): void {
  const where = `${op.method} ${op.path} (${op.operationId}) answered ${response.status}`;
  const documented = op.operation.responses[String(response.status)];
  expect(documented, `${where}, a status the document does not list (${Object.keys(op.operation.responses).join(', ')}): ${response.text.slice(0, 300)}`).toBeDefined();
  const mediaType = String(response.headers.get('content-type')).split(';')[0]!.trim();
  expect(Object.keys(documented.content), `${where} as ${mediaType}`).toContain(mediaType);
  const validate = validatorAt(pointer('paths', op.path, op.method.toLowerCase(), 'responses', String(response.status), 'content', mediaType, 'schema'));
  expect(validate(response.body), `${where}: the body does not match its schema: ${errorText(validate)}\n${response.text.slice(0, 500)}`).toBe(true);
  if (response.status >= 400) {
    expect(op.operation['x-problem-codes'][String(response.status)], `${where} with code ${response.body?.code}`).toContain(response.body?.code);
  }
}

async function perform(call: Call, expected?: DocumentedOperation): Promise<TestResponse> {
  const op = operationOf(call.method, call.path);
  expect(op, `${call.method} ${call.path} is a documented operation`).toBeDefined();
  if (expected) expect(op!.operationId, `${call.method} ${call.path}`).toBe(expected.operationId);
  const headers: Record<string, string> = { ...call.headers };
  const key = call.as === 'bad' ? BAD_KEY : call.as === 'none' || call.as === undefined ? undefined : call.as.key;
  if (call.raw) headers['content-type'] = call.raw.type;
  const response = await server.request(call.method, call.path, { ...(key ? { key } : {}), headers, ...(call.raw ? { rawBody: call.raw.text } : call.body !== undefined ? { body: call.body } : {}) });
  expectConforms(op!, response);
  expect(response.status, `${call.method} ${call.path}: ${response.text.slice(0, 300)}`).toBe(call.status);
  if (call.code) expect(response.body.code).toBe(call.code);
  return response;
}

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_DEFAULT_PER_MINUTE: '100000', RATE_LIMIT_REGISTER_PER_MINUTE: '100000', RATE_LIMIT_CHECK_PER_MINUTE: '100000' });
  doc = (await server.request('GET', '/openapi.json')).body;
  operations = operationsOf(doc);
  validatorAt = documentValidators(doc);
  const [alice, bob] = [await registerUser(server, { name: 'Alice Conformance' }), await registerUser(server, { name: 'Bob Conformance' })];
  world = { alice, bob, fresh: () => registerUser(server), send: (call) => perform(call) };
  await fundWithUsdc(alice, 100);
  // The hot wallet pays withdrawals out; the card lets alice pay instantly.
  const { deps } = server;
  await deps.chain.sandboxChain!.mint({ token: deps.chain.tokens.USDC, minter: deps.wallets.sandboxTokenOwner, to: deps.wallets.hotWallet.address, amount: 1_000_000_000n });
  await setUpCard(alice);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function fundWithUsdc(user: TestUser, amount: number): Promise<void> {
  await perform(post('/test-helpers/stablecoin/faucet', 'none', { address: user.depositAddress, amount, currency: 'USDC' }, 200));
  for (let round = 0; round < 100; round++) {
    await watchDeposits(server.deps);
    const balance = await perform(get('/stablecoin/balance', user, 200));
    if (Number(balance.body.USDC) >= amount) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the faucet deposit was not credited');
}

async function setUpCard(user: TestUser): Promise<void> {
  const link = await perform(post('/agent/setup-link', user, undefined, 200));
  const page = await fetch(server.url + new URL(link.body.url).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'outcome=succeed',
  });
  expect(page.status).toBe(200);
}

describe('every operation of the OpenAPI document', () => {
  it('has a case here, and every case is an operation of the document', () => {
    const documented = operations.map((o) => o.operationId).sort();
    const cased = Object.keys(CASES).sort();
    expect(documented.filter((id) => !cased.includes(id)), 'operations without a conformance case').toEqual([]);
    expect(cased.filter((id) => !documented.includes(id)), 'cases of operations the document does not have').toEqual([]);
  });

  it.each(Object.keys(CASES))('%s answers what the document says, on success and on refusal', async (operationId) => {
    const op = operations.find((o) => o.operationId === operationId);
    expect(op, `${operationId} is in the document`).toBeDefined();
    const { success, errors } = await CASES[operationId]!(world);
    expect(success.length, 'a success path').toBeGreaterThan(0);
    expect(errors.length, 'an error path').toBeGreaterThan(0);
    for (const call of success) expect(call.status).toBeLessThan(300);
    for (const call of errors) expect(call.status).toBeGreaterThanOrEqual(400);
    for (const call of [...success, ...errors]) await perform(call, op);
  });
});

describe('the conformance check itself', () => {
  it('refuses an answer whose status, content type, body or code the document does not list', () => {
    const op = operations.find((o) => o.operationId === 'getStablecoinBalance')!;
    const answer = (status: number, type: string, body: unknown): TestResponse => ({ status, headers: new Headers({ 'content-type': type }), body, text: JSON.stringify(body) });
    const problem = (status: number, code: string) => ({ type: 'https://peerpay.dev/problems/x', title: 'X', status, detail: 'x', code });
    expect(() => expectConforms(op, answer(200, 'application/json', { USDC: '1.000000', EURC: '0.000000' }))).not.toThrow();
    expect(() => expectConforms(op, answer(404, 'application/problem+json', problem(404, 'not_found')))).toThrow(/does not list/);
    expect(() => expectConforms(op, answer(200, 'text/plain', 'ok'))).toThrow();
    expect(() => expectConforms(op, answer(200, 'application/json', { USDC: 1, EURC: '0.000000' }))).toThrow(/does not match/);
    expect(() => expectConforms(op, answer(400, 'application/problem+json', problem(400, 'insufficient_balance')))).toThrow();
  });
});
