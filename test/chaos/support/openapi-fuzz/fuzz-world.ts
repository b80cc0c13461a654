// The fuzzer's world: users with cards, bank debits, payouts and funded USDC and EURC balances, and
// real things for requests to name (recipients, addresses, cursors of real lists, fresh link
// tokens, signed x402 payments), so that generated requests get past validation into the code
// that moves money. Also resolves the placeholders a case carries until it is sent.
import type { LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { registerUser, type TestServer, type TestUser } from '../../../helpers/test-server.js';
import { linkPath, newLink, setUp } from '../../../helpers/fiat.js';
import { drainDeposits, faucet, mined } from '../../../helpers/stablecoin-chain.js';
import { fundHotWallet } from '../../../helpers/withdrawals.js';
import {
  encodeBase64Json,
  fundedPayer,
  handMadeV1Header,
  LOOKUP_PRICE,
  payToOf,
  QUOTE_PRICE,
  SEARCH_PRICE,
  signAuthorization,
} from '../../../helpers/nano.js';
import type { Hints } from './schema-values.js';

export const LINK_PURPOSES = ['card-setup', 'bank-debit-setup', 'payout-setup', 'funding'] as const;
type LinkPurpose = (typeof LINK_PURPOSES)[number];

const LINK_ENDPOINT = {
  'card-setup': '/agent/setup-link',
  'bank-debit-setup': '/agent/bank-debit-link',
  'payout-setup': '/agent/connect-link',
} as const;

export interface FuzzWorld {
  users: TestUser[];
  hints: Hints;
  /** Replaces `{{keyN}}`, `{{link:purpose:N}}`, `{{x402}}` / `{{x402v2}}` and `{{unique}}` in a case's path, headers and body. */
  resolve(text: string, path: string): Promise<string>;
  /** Registers again (as a user would) every user whose key a case revoked. */
  renewRevokedKeys(): Promise<void>;
}

async function must(server: TestServer, method: string, path: string, user: TestUser, body?: unknown) {
  const answer = await server.request(method, path, { key: user.key, ...(body === undefined ? {} : { body }) });
  if (answer.status >= 300) throw new Error(`setting up the fuzzer: ${method} ${path} answered ${answer.status} ${answer.text}`);
  return answer.body;
}

/** The `nextCursor` of a one-item page of `path`, if the list has a second item. */
async function cursorOf(server: TestServer, user: TestUser, path: string): Promise<string[]> {
  const page = await must(server, 'GET', `${path}?limit=1`, user);
  return page.nextCursor ? [page.nextCursor] : [];
}

/** Cursors peerpay never made but that decode: far dates, odd ids, wrong shapes. */
function craftedCursors(): string[] {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return [
    encode(['+275760-09-13T00:00:00.000Z', 'x']),
    encode(['-271821-04-20T00:00:00.000Z', 'x']),
    encode(['0000-01-01T00:00:00.000Z', 'x']),
    encode(['-004714-11-23T00:00:00.000Z', 'x']),
    encode(['2026-01-01T00:00:00.000Z', '\u0000']),
    encode(['2026-01-01T00:00:00.000Z', "' or 1=1 --"]),
    encode(['2026-01-01T00:00:00.000Z', '\ud800']),
    encode(['2026-01-01T00:00:00.000Z', 'x'.repeat(100)]),
    encode(['2026-01-01T00:00:00.000Z', 1]),
    encode(['2026-01-01T00:00:00.000Z']),
    encode({ a: 1 }),
    'not-base64!',
    '====',
  ];
}

export async function buildFuzzWorld(server: TestServer): Promise<FuzzWorld> {
  const [alice, bob, carol] = [await registerUser(server), await registerUser(server), await registerUser(server)];
  const users = [alice, bob, carol];
  // Alice and Bob can pay every way; Carol has nothing set up, so her requests meet the refusals.
  for (const user of [alice, bob]) {
    await setUp(server, user, '/agent/setup-link');
    await setUp(server, user, '/agent/bank-debit-link');
    await setUp(server, user, '/agent/connect-link');
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 500_000, currency: 'USDC' }));
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 500_000, currency: 'EURC' }));
  }
  await drainDeposits(server);
  await fundHotWallet(server, 10n ** 13n);
  await fundHotWallet(server, 10n ** 13n, 'EURC');
  await must(server, 'PATCH', '/account', bob, { phone: '+14155550123', discoverable: true, website: 'https://bob.example' });

  // One of everything, so that lists have pages and the ids the fuzzer names exist.
  const withdrawTo = privateKeyToAccount(generatePrivateKey()).address;
  await must(server, 'PUT', '/stablecoin/withdrawal-address', alice, { address: withdrawTo });
  await must(server, 'PUT', '/stablecoin/withdrawal-address', bob, { address: privateKeyToAccount(generatePrivateKey()).address });
  for (let i = 0; i < 2; i++) {
    await must(server, 'POST', '/transfers', alice, { recipientHandle: bob.handle, amount: 5, currency: 'USD' });
    await must(server, 'POST', '/agent/transfer', alice, { to: bob.handle, amount: 3, currency: 'USDC' });
    await must(server, 'POST', '/stablecoin/withdraw', alice, { amount: 2, currency: 'USDC' });
  }
  await must(server, 'POST', '/transfers', bob, { recipientHandle: alice.handle, amount: 7, currency: 'EUR', paymentMethod: 'ach' });
  await must(server, 'GET', `/agent/transfer/quote?to=${encodeURIComponent(bob.email)}&amount=10&currency=USDC`, alice);
  await must(server, 'POST', '/stablecoin/buy-session', alice, { amount: 5, currency: 'USDC' });
  const cursors = [
    ...(await cursorOf(server, alice, '/transfers')),
    ...(await cursorOf(server, alice, '/transactions')),
    ...(await cursorOf(server, alice, '/stablecoin/transfers')),
  ];
  if (cursors.length < 3) throw new Error(`setting up the fuzzer: expected a cursor of each list, got ${cursors.length}`);

  const payers: LocalAccount[] = [await fundedPayer(server, 10n ** 9n)];
  const usedPayments: string[] = [];
  let unique = Date.now();
  const priceOf = (path: string) =>
    path.startsWith('/nano/search') ? SEARCH_PRICE : path.startsWith('/nano/quote') ? QUOTE_PRICE : LOOKUP_PRICE;

  const hints: Hints = {
    to: [bob.handle, bob.email, '+14155550123', alice.handle, carol.handle, 'PA-00000000'],
    recipientHandle: [bob.handle, alice.handle, carol.handle, 'PA-00000000', bob.handle.toLowerCase()],
    recipientEmail: [bob.email, alice.email, carol.email, bob.email.toUpperCase(), 'nobody@example.com'],
    handle: [bob.handle, carol.handle, 'PA-00000000'],
    email: [bob.email, alice.email, carol.email],
    password: [alice.password],
    address: [
      withdrawTo,
      privateKeyToAccount(generatePrivateKey()).address,
      alice.depositAddress,
      bob.depositAddress,
      '0x0000000000000000000000000000000000000000',
    ],
    currency: ['USDC', 'EURC', 'usdc', 'USD', 'EUR', 'GBP', 'JPY', 'jpy', 'BTC'],
    amount: [0.01, 1, 2.5, 10, 0.000001, 100, '10', '0.01', '2.5', '1000000', '0.0000001', '-1'],
    paymentMethod: ['instant', 'ach'],
    note: ['rent', '😀 thanks', ''],
    name: ['Fuzz Name', 'Zoë 😀'],
    phone: ['+14155550199', null, '+1'],
    website: ['https://fuzz.example', null, 'javascript:alert(1)'],
    chain: ['polygon', 'POLYGON', 'ethereum'],
    limit: ['1', '2', '20', '100'],
    cursor: [...cursors, ...craftedCursors()],
    days: [1, 3, 30],
    q: ['Test', 'bob', '%', '_'],
    action: ['transfer', 'withdraw', 'swap'],
    outcome: ['succeed', 'decline', 'return', 'cancel', 'explode'],
    // Per operation (`<path>:<name>`): each rail's own currencies and amounts.
    ...Object.fromEntries(
      [
        '/agent/transfer',
        '/stablecoin/transfer',
        '/stablecoin/withdraw',
        '/stablecoin/buy-session',
        '/test-helpers/stablecoin/faucet',
        '/agent/transfer/quote',
      ].flatMap((path) => [
        [`${path}:currency`, ['USDC', 'EURC', 'usdc', 'eurc', 'USD']],
        [`${path}:amount`, [0.01, 1, 2.5, 0.000001, 10, '1.5', '0.0000001']],
      ]),
    ),
    '/transfers:currency': ['USD', 'EUR', 'GBP', 'JPY', 'usd', 'USDC'],
    '/transfers:amount': [0.01, 1, 2.5, 10, 100, 0.001],
    '/nano/quote:currency': ['USDC', 'EURC', 'USD', 'JPY'],
    '/nano/quote:action': ['transfer', 'withdraw', 'instant', 'ach'],
    '/nano/quote:amount': ['10', '0.01', '2.5', '1000000.5'],
    '/nano/search:website': ['bob.example', 'https://www.bob.example', 'not a site'],
    '/nano/lookup:email': [bob.email],
    '/stablecoin/withdraw:address': [
      privateKeyToAccount(generatePrivateKey()).address,
      privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
      alice.depositAddress,
    ],
    '/agent/register:email': [alice.email, 'fz-{{unique}}@example.com'],
    '/stablecoin/register:email': [bob.email, 'fz-{{unique}}@example.com'],
    token: LINK_PURPOSES.flatMap((purpose) => users.map((_, n) => `{{link:${purpose}:${n}}}`)),
    'header:x-payment-source': ['balance', 'elsewhere'],
    'header:x-payment': ['{{x402}}', '{{x402:replay}}', '{{x402v2}}'],
    'header:payment-signature': ['{{x402v2}}', '{{x402v2:replay}}', '{{x402}}'],
  };

  async function linkToken(purpose: LinkPurpose, user: TestUser): Promise<string> {
    const url =
      purpose === 'funding'
        ? (await must(server, 'POST', '/stablecoin/buy-session', user, { amount: 1, currency: 'USDC' })).url
        : (await newLink(server, user, LINK_ENDPOINT[purpose])).url;
    const path = linkPath(url);
    return path.slice(path.lastIndexOf('/') + 1);
  }

  /** An x402 v2 PAYMENT-SIGNATURE: the exact-EVM requirements peerpay publishes, accepted and signed. */
  async function v2Header(price: bigint): Promise<string> {
    const { authorization, signature } = await signAuthorization(server, payers[0]!, price);
    const accepted = {
      scheme: 'exact',
      network: 'eip155:137',
      amount: String(price),
      asset: server.deps.chain.tokens.USDC,
      payTo: payToOf(server),
      maxTimeoutSeconds: 60,
      extra: { name: 'USD Coin', version: '2' },
    };
    return encodeBase64Json({ x402Version: 2, accepted, payload: { signature, authorization } });
  }

  async function payment(path: string, replay: boolean, version: 1 | 2): Promise<string> {
    if (replay && usedPayments.length) return usedPayments[usedPayments.length - 1]!;
    const header = version === 2 ? await v2Header(priceOf(path)) : await handMadeV1Header(server, payers[0]!, priceOf(path));
    usedPayments.push(header);
    if (usedPayments.length > 20) usedPayments.shift();
    return header;
  }

  return {
    users,
    hints,
    async resolve(text, path) {
      let out = text
        .replace(/\{\{key(\d)\}\}/g, (_, n: string) => users[Number(n)]?.key ?? '')
        .replace(/\{\{unique\}\}/g, () => String(++unique));
      for (const match of [...out.matchAll(/\{\{link:([a-z-]+):(\d)\}\}/g)]) {
        out = out.replace(match[0], await linkToken(match[1] as LinkPurpose, users[Number(match[2])]!));
      }
      for (const match of [...out.matchAll(/\{\{x402(v2)?(:replay)?\}\}/g)])
        out = out.replace(match[0], await payment(path, match[2] !== undefined, match[1] ? 2 : 1));
      return out;
    },
    async renewRevokedKeys() {
      for (const user of users) {
        if ((await server.request('GET', '/account', { key: user.key })).status !== 401) continue;
        const again = await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } });
        if (again.status >= 300) throw new Error(`registering again after a revoked key: ${again.status} ${again.text}`);
        user.key = again.body.apiKey;
      }
    },
  };
}
