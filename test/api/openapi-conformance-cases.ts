// The conformance cases, one per operation of the OpenAPI document: the calls that drive it through
// success and refusal against a sandbox service with real registered users (CASES), and the
// operations only live mode has (LIVE_CASES). Used by openapi-conformance.test.ts and
// openapi-conformance-live.test.ts.
import { createHmac } from 'node:crypto';
import type { TestResponse, TestUser } from '../helpers/test-server.js';

/** Not a peerpay address: where withdrawals and faucet mints go. */
const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';
const NOBODY = 'PA-ZZZZZZZZ';
export const BAD_KEY = 'pa_live_notAKeyAtAll';

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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

export interface Case {
  success: Call[];
  errors: Call[];
}

export interface World {
  alice: TestUser;
  bob: TestUser;
  /** A user of its own, for operations that change keys or passwords. */
  fresh(): Promise<TestUser>;
  /** A call checked against the operation it reaches (for set-up steps); throws unless it answered `status`. */
  send(call: Call): Promise<TestResponse>;
}

const q = encodeURIComponent;
export const post = (path: string, as: Call['as'], body: unknown, status: number, code?: string): Call => ({
  method: 'POST',
  path,
  as,
  body,
  status,
  ...(code ? { code } : {}),
});
export const get = (path: string, as: Call['as'], status: number, code?: string): Call => ({
  method: 'GET',
  path,
  as,
  status,
  ...(code ? { code } : {}),
});
const NUL_QUERY = '?x=%00';

export const CASES: Record<string, (w: World) => Case | Promise<Case>> = {
  getHealth: () => ({ success: [get('/health', 'none', 200)], errors: [get(`/health${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),
  getLiveness: () => ({
    success: [get('/health/live', 'none', 200)],
    errors: [get(`/health/live${NUL_QUERY}`, 'none', 400, 'invalid_request')],
  }),
  getReadiness: () => ({
    success: [get('/health/ready', 'none', 200)],
    errors: [get(`/health/ready${NUL_QUERY}`, 'none', 400, 'invalid_request')],
  }),

  registerAgent: () => {
    const email = `conformance-agent-${Date.now()}@example.com`;
    return {
      success: [
        post('/agent/register', 'none', { email, password: 'correct horse battery', name: 'Grace Hopper' }, 201),
        post('/agent/register', 'none', { email, password: 'correct horse battery' }, 200),
      ],
      errors: [
        post('/agent/register', 'none', { email, password: 'wrong horse battery' }, 401, 'invalid_credentials'),
        post('/agent/register', 'none', { email: 'grace@', password: 'correct horse battery', name: 'Grace' }, 400, 'invalid_email'),
        post('/agent/register', 'none', { email }, 400, 'invalid_request'),
      ],
    };
  },
  registerStablecoinAccount: () => ({
    success: [
      post(
        '/stablecoin/register',
        'none',
        { email: `conformance-stablecoin-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Katherine Johnson' },
        201,
      ),
    ],
    errors: [
      {
        method: 'POST',
        path: '/stablecoin/register',
        raw: { text: '{"email":', type: 'application/json' },
        status: 400,
        code: 'malformed_json',
      },
      {
        method: 'POST',
        path: '/stablecoin/register',
        raw: { text: 'email=a', type: 'text/plain' },
        status: 415,
        code: 'unsupported_media_type',
      },
    ],
  }),
  checkAccount: ({ alice }) => ({
    success: [get(`/agents/check?email=${q(alice.email)}`, 'none', 200), get(`/agents/check?handle=${NOBODY}`, alice, 200)],
    errors: [
      get(`/agents/check?email=${q(alice.email)}&handle=${alice.handle}`, 'none', 400, 'invalid_request'),
      get(`/agents/check?handle=${alice.handle}`, 'bad', 401, 'unauthorized'),
    ],
  }),
  lookupAgent: ({ alice, bob }) => ({
    success: [get(`/agents/lookup?handle=${bob.handle}`, alice, 200)],
    errors: [
      get(`/agents/lookup?handle=${NOBODY}`, alice, 404, 'recipient_not_found'),
      get(`/agents/lookup?handle=${bob.handle}`, 'none', 401, 'unauthorized'),
    ],
  }),
  lookupStablecoinRecipient: ({ alice, bob }) => ({
    success: [get(`/stablecoin/lookup?email=${q(bob.email)}`, alice, 200)],
    errors: [
      get('/stablecoin/lookup', alice, 400, 'invalid_request'),
      get('/stablecoin/lookup?email=not-an-email', alice, 400, 'invalid_email'),
    ],
  }),

  revokeApiKey: async ({ fresh }) => {
    const user = await fresh();
    return {
      success: [post('/account/revoke-key', user, undefined, 200)],
      errors: [post('/account/revoke-key', user, undefined, 401, 'unauthorized')],
    };
  },
  changePassword: async ({ fresh }) => {
    const user = await fresh();
    return {
      success: [post('/account/password', user, { currentPassword: user.password, newPassword: 'staple battery horse' }, 200)],
      errors: [
        post(
          '/account/password',
          user,
          { currentPassword: 'not the password', newPassword: 'another battery horse' },
          401,
          'invalid_credentials',
        ),
        post('/account/password', user, { currentPassword: 'staple battery horse', newPassword: 'short' }, 400, 'invalid_request'),
      ],
    };
  },
  revokeAllApiKeys: async ({ fresh }) => {
    const user = await fresh();
    return {
      success: [post('/account/revoke-all-keys', user, undefined, 200)],
      errors: [post('/account/revoke-all-keys', user, undefined, 401, 'unauthorized')],
    };
  },
  getAccount: ({ alice }) => ({ success: [get('/account', alice, 200)], errors: [get('/account', 'bad', 401, 'unauthorized')] }),
  getAccountLimits: ({ alice }) => ({
    success: [get('/account/limits', alice, 200)],
    errors: [get('/account/limits', 'bad', 401, 'unauthorized')],
  }),
  updateAccount: async ({ alice, bob, send }) => {
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    await send({ method: 'PATCH', path: '/account', as: bob, body: { phone }, status: 200 });
    return {
      success: [
        { method: 'PATCH', path: '/account', as: alice, body: { website: 'https://alice.example.com', discoverable: true }, status: 200 },
      ],
      errors: [
        { method: 'PATCH', path: '/account', as: alice, body: {}, status: 400, code: 'invalid_request' },
        { method: 'PATCH', path: '/account', as: alice, body: { phone }, status: 409, code: 'already_exists' },
      ],
    };
  },
  createStablecoinWallet: ({ alice }) => ({
    success: [post('/stablecoin/wallet', alice, undefined, 200)],
    errors: [post('/stablecoin/wallet', 'none', undefined, 401, 'unauthorized')],
  }),

  createCardSetupLink: ({ bob }) => ({
    success: [post('/agent/setup-link', bob, undefined, 200)],
    errors: [post('/agent/setup-link', bob, { card: '4242' }, 400, 'invalid_request')],
  }),
  createPayoutSetupLink: ({ bob }) => ({
    success: [post('/agent/connect-link', bob, undefined, 200)],
    errors: [post('/agent/connect-link', 'bad', undefined, 401, 'unauthorized')],
  }),
  createBankDebitSetupLink: ({ bob }) => ({
    success: [post('/agent/bank-debit-link', bob, {}, 200)],
    errors: [
      {
        method: 'POST',
        path: '/agent/bank-debit-link',
        as: bob,
        raw: { text: 'hello', type: 'text/plain' },
        status: 415,
        code: 'unsupported_media_type',
      },
    ],
  }),
  createTransfer: ({ alice, bob }) => {
    const send = (as: TestUser, body: object, status: number, code?: string, key?: string): Call => ({
      ...post('/transfers', as, body, status, code),
      ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
    });
    const key = `conformance-${Date.now()}`;
    return {
      success: [
        send(
          alice,
          { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'instant', note: 'Lunch' },
          200,
          undefined,
          key,
        ),
        // The same request again: the first answer, replayed.
        send(
          alice,
          { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'instant', note: 'Lunch' },
          200,
          undefined,
          key,
        ),
      ],
      errors: [
        send(
          alice,
          { recipientHandle: bob.handle, amount: 11, currency: 'USD', paymentMethod: 'instant' },
          422,
          'idempotency_key_reused',
          key,
        ),
        send(bob, { recipientHandle: alice.handle, amount: 10, currency: 'USD' }, 402, 'card_setup_required'),
        send(alice, { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'ach' }, 409, 'ach_setup_required'),
        send(alice, { recipientHandle: bob.handle, amount: 10, currency: 'USD', paymentMethod: 'wire' }, 400, 'invalid_request'),
        send(alice, { recipientHandle: NOBODY, amount: 10, currency: 'USD' }, 404, 'recipient_not_found'),
        send(alice, { recipientHandle: bob.handle, amount: 0.01, currency: 'USD' }, 400, 'amount_too_small'),
        send(alice, { recipientHandle: alice.handle, amount: 10, currency: 'USD' }, 400, 'self_transfer'),
      ],
    };
  },
  listTransfers: ({ alice }) => ({
    success: [get('/transfers?limit=5', alice, 200)],
    errors: [get('/transfers?limit=0', alice, 400, 'invalid_request')],
  }),
  quoteTransfer: ({ alice, bob }) => ({
    success: [
      get(`/transfers/quote?recipientHandle=${bob.handle}&amount=10&currency=USD`, alice, 200),
      get(`/transfers/quote?recipientHandle=${bob.handle}&amount=10&currency=USD&paymentMethod=ach`, alice, 200),
    ],
    errors: [
      get(`/transfers/quote?recipientHandle=${bob.handle}&amount=0.1&currency=USD`, alice, 400, 'amount_too_small'),
      get(`/transfers/quote?recipientHandle=${bob.handle}&amount=1.234&currency=USD`, alice, 400, 'invalid_amount'),
      get(`/transfers/quote?recipientHandle=${bob.handle}&amount=10&currency=CHF`, alice, 400, 'unsupported_currency'),
      get(`/transfers/quote?recipientHandle=${NOBODY}&amount=10&currency=USD`, alice, 404, 'recipient_not_found'),
    ],
  }),
  getBalance: ({ bob }) => ({ success: [get('/balance', bob, 200)], errors: [get('/balance', 'none', 401, 'unauthorized')] }),
  listTransactions: ({ alice }) => ({
    success: [get('/transactions', alice, 200)],
    errors: [get('/transactions?cursor=not-a-cursor', alice, 400, 'invalid_request')],
  }),

  getDepositAddress: ({ alice }) => ({
    success: [get('/stablecoin/deposit-address?chain=MATIC', alice, 200)],
    errors: [get('/stablecoin/deposit-address?chain=ETH', alice, 400, 'unsupported_chain')],
  }),
  createFundingLink: ({ alice }) => ({
    success: [post('/stablecoin/buy-session', alice, { amount: 50, currency: 'USDC' }, 200)],
    errors: [post('/stablecoin/buy-session', alice, { amount: 50, currency: 'DOGE' }, 400, 'unsupported_currency')],
  }),
  getStablecoinBalance: ({ alice }) => ({
    success: [get('/stablecoin/balance', alice, 200)],
    errors: [get('/stablecoin/balance', 'bad', 401, 'unauthorized')],
  }),
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
    errors: [
      get(`/agent/transfer/quote?to=${bob.handle}&amount=0.001`, alice, 400, 'amount_too_small'),
      get(`/agent/transfer/quote?to=${NOBODY}&amount=10`, alice, 404, 'recipient_not_found'),
    ],
  }),
  setWithdrawalAddress: ({ alice }) => ({
    success: [{ method: 'PUT', path: '/stablecoin/withdrawal-address', as: alice, body: { address: EXTERNAL }, status: 200 }],
    errors: [
      {
        method: 'PUT',
        path: '/stablecoin/withdrawal-address',
        as: alice,
        body: { address: '0x1234' },
        status: 400,
        code: 'invalid_address',
      },
    ],
  }),
  getWithdrawalAddress: ({ alice }) => ({
    success: [get('/stablecoin/withdrawal-address', alice, 200)],
    errors: [get('/stablecoin/withdrawal-address', 'bad', 401, 'unauthorized')],
  }),
  listStablecoinTransfers: ({ alice }) => ({
    success: [get('/stablecoin/transfers?limit=10', alice, 200)],
    errors: [get('/stablecoin/transfers?limit=ten', alice, 400, 'invalid_request')],
  }),
  quoteWithdrawal: async ({ alice, fresh }) => {
    const unfunded = await fresh();
    return {
      success: [get(`/stablecoin/withdraw/quote?amount=5&currency=USDC&address=${EXTERNAL}`, alice, 200)],
      errors: [
        get(`/stablecoin/withdraw/quote?amount=0.5&currency=USDC&address=${EXTERNAL}`, alice, 400, 'amount_too_small'),
        get(`/stablecoin/withdraw/quote?amount=5&currency=DOGE&address=${EXTERNAL}`, alice, 400, 'unsupported_currency'),
        get('/stablecoin/withdraw/quote?amount=5&currency=USDC&address=0x1234', alice, 400, 'invalid_address'),
        get('/stablecoin/withdraw/quote?amount=5&currency=USDC', unfunded, 400, 'no_default_address'),
      ],
    };
  },
  createWithdrawal: async ({ alice, fresh }) => {
    const unfunded = await fresh();
    return {
      success: [post('/stablecoin/withdraw', alice, { amount: 2, currency: 'USDC', address: EXTERNAL }, 200)],
      errors: [
        post('/stablecoin/withdraw', alice, { amount: 0.5, currency: 'USDC', address: EXTERNAL }, 400, 'amount_too_small'),
        post('/stablecoin/withdraw', unfunded, { amount: 2, currency: 'USDC' }, 400, 'no_default_address'),
        post('/stablecoin/withdraw', unfunded, { amount: 2, currency: 'USDC', address: EXTERNAL }, 400, 'insufficient_balance'),
      ],
    };
  },

  getNanoStatus: () => ({ success: [get('/nano', 'none', 200)], errors: [get(`/nano${NUL_QUERY}`, 'none', 400, 'invalid_request')] }),
  getX402Discovery: () => ({
    success: [get('/.well-known/x402', 'none', 200)],
    errors: [get(`/.well-known/x402${NUL_QUERY}`, 'none', 400, 'invalid_request')],
  }),
  searchNanoDirectory: ({ alice }) => ({
    success: [{ ...get('/nano/search?q=alice', alice, 200), headers: { 'X-Payment-Source': 'balance' } }],
    errors: [get('/nano/search?q=alice', 'none', 402, 'payment_required'), get('/nano/search', 'none', 400, 'invalid_request')],
  }),
  lookupNanoAccount: ({ alice, bob }) => ({
    success: [{ ...get(`/nano/lookup?handle=${bob.handle}`, alice, 200), headers: { 'X-Payment-Source': 'balance' } }],
    errors: [
      get(`/nano/lookup?handle=${bob.handle}`, 'none', 402, 'payment_required'),
      { ...get(`/nano/lookup?handle=${bob.handle}`, 'none', 401, 'unauthorized'), headers: { 'X-Payment-Source': 'balance' } },
      get('/nano/lookup?email=bob', 'none', 400, 'invalid_email'),
    ],
  }),
  quoteNanoFee: ({ alice }) => ({
    success: [{ ...get('/nano/quote?amount=10&action=instant&currency=EUR', alice, 200), headers: { 'X-Payment-Source': 'balance' } }],
    errors: [
      get('/nano/quote?amount=10', 'none', 402, 'payment_required'),
      get('/nano/quote?amount=10&action=steal', 'none', 400, 'invalid_request'),
    ],
  }),

  advanceSandboxClock: () => ({
    success: [post('/test-helpers/clock/advance', 'none', { days: 1 }, 200)],
    errors: [post('/test-helpers/clock/advance', 'none', { days: 0 }, 400, 'invalid_request')],
  }),
  mintSandboxTokens: () => ({
    success: [post('/test-helpers/stablecoin/faucet', 'none', { address: EXTERNAL, amount: 1, currency: 'EURC' }, 200)],
    errors: [post('/test-helpers/stablecoin/faucet', 'none', { address: '0xdead', amount: 1, currency: 'EURC' }, 400, 'invalid_address')],
  }),
  listEvents: ({ alice }) => ({
    success: [get('/events', alice, 200), get('/events?limit=5', alice, 200)],
    errors: [get('/events?limit=0', alice, 400, 'invalid_request'), get('/events?after=evt_nosuchevent', alice, 400, 'invalid_request')],
  }),
  createWebhookEndpoint: async ({ fresh }) => {
    const owner = await fresh();
    return {
      success: [post('/webhook-endpoints', owner, { url: 'http://127.0.0.1:9/hooks', events: ['transfer.received'] }, 201)],
      errors: [
        post('/webhook-endpoints', owner, { url: 'ftp://example.com/hooks' }, 400, 'invalid_field'),
        post('/webhook-endpoints', owner, { url: 'https://example.com/hooks', events: ['transfer.teleported'] }, 400, 'invalid_field'),
      ],
    };
  },
  listWebhookEndpoints: ({ alice }) => ({
    success: [get('/webhook-endpoints', alice, 200)],
    errors: [get('/webhook-endpoints', 'bad', 401, 'unauthorized')],
  }),
  deleteWebhookEndpoint: async ({ fresh, send }) => {
    const owner = await fresh();
    const created = await send(post('/webhook-endpoints', owner, { url: 'http://127.0.0.1:9/hooks' }, 201));
    return {
      success: [{ method: 'DELETE', path: `/webhook-endpoints/${q(created.body.id)}`, as: owner, status: 200 }],
      errors: [{ method: 'DELETE', path: `/webhook-endpoints/${q(created.body.id)}`, as: owner, status: 404, code: 'not_found' }],
    };
  },
  listWebhookDeliveries: async ({ fresh, bob, send }) => {
    const owner = await fresh();
    const created = await send(post('/webhook-endpoints', owner, { url: 'http://127.0.0.1:9/hooks' }, 201));
    return {
      success: [get(`/webhook-endpoints/${q(created.body.id)}/deliveries`, owner, 200)],
      // Another account's endpoint is not found.
      errors: [get(`/webhook-endpoints/${q(created.body.id)}/deliveries`, bob, 404, 'not_found')],
    };
  },
};

/** What only live mode serves: Stripe's webhook, authenticated by its signature. */
export const LIVE_CASES: Record<string, (w: { webhookSecret: string }) => Case> = {
  receiveStripeWebhook: ({ webhookSecret }) => {
    const timestamp = Math.floor(Date.now() / 1000);
    // An event type peerpay does not act on: verified, answered 200, ignored.
    const payload = JSON.stringify({
      id: `evt_conformance${timestamp}`,
      object: 'event',
      type: 'customer.created',
      created: timestamp,
      livemode: false,
      data: { object: { id: 'cus_conformance', object: 'customer' } },
    });
    const signature = `t=${timestamp},v1=${createHmac('sha256', webhookSecret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')}`;
    const webhook = (headers: Record<string, string>, status: number, code?: string): Call => ({
      method: 'POST',
      path: '/webhooks/stripe',
      as: 'none',
      raw: { text: payload, type: 'application/json' },
      headers,
      status,
      ...(code ? { code } : {}),
    });
    return {
      success: [webhook({ 'Stripe-Signature': signature }, 200)],
      errors: [
        webhook({ 'Stripe-Signature': `t=${timestamp},v1=${'0'.repeat(64)}` }, 400, 'invalid_signature'),
        webhook({}, 400, 'invalid_signature'),
      ],
    };
  },
};
