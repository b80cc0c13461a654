// The scripted journeys of the fiat and stablecoin rails, in sandbox mode:
//   npm run journey                      on an instance of their own (dist/, a fresh DATA_DIR, removed after)
//   BASE_URL=http://... npm run journey  against a running peerpay, whose sandbox clock is left alone
// The fiat journey checks an ACH settlement by moving the sandbox clock 5 days on; the clock never
// moves back, so that step runs only on the journeys' own instance. Every step checks its answer;
// the first surprise stops the journey with a non-zero exit.
import { pathToFileURL } from 'node:url';
import { createPublicClient, http, parseAbi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startOwnInstance } from './journey-instance.js';

interface Answer {
  status: number;
  body: any;
}

export class JourneyError extends Error {}

type Say = (line: string) => void;

function journeyClient(baseUrl: string, say: Say) {
  const call = async (
    method: string,
    path: string,
    options: { key?: string; body?: unknown; form?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const url = path.startsWith('http') ? path : baseUrl + path;
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // HTML pages stay text
    }
    return { status: response.status, body: parsed };
  };
  const expect = (answer: Answer, status: number, what: string) => {
    if (answer.status !== status)
      throw new JourneyError(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
    say(`ok  ${what}`);
    return answer.body;
  };
  const equal = (actual: unknown, expected: unknown, what: string) => {
    if (actual !== expected) throw new JourneyError(`${what}: expected ${String(expected)}, got ${String(actual)}`);
    say(`ok  ${what} = ${String(actual)}`);
  };
  const register = async (name: string) => {
    const email = `${name.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    const body = expect(
      await call('POST', '/agent/register', { body: { email, password: 'correct horse battery', name } }),
      201,
      `register ${name}`,
    );
    return { key: body.apiKey as string, handle: body.agentHandle as string, depositAddress: body.depositAddress as Address };
  };
  return { call, expect, equal, register };
}

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value and the time taken. */
async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      throw new JourneyError(`${what}: not reached within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface JourneyOptions {
  /** `advance`: move the sandbox clock 5 days to settle ACH (only on an instance of the journey's own); `leave`: never move it. */
  sandboxClock: 'advance' | 'leave';
}

type JourneyClient = ReturnType<typeof journeyClient>;
type Account = Awaited<ReturnType<JourneyClient['register']>>;

function fiatSteps(client: JourneyClient) {
  const { call, expect } = client;
  const completeLink = async (key: string, path: string, outcome: string) => {
    const link = expect(await call('POST', path, { key }), 200, `${path}`);
    expect(await call('GET', link.url), 200, `${path} page shows what will happen`);
    expect(await call('POST', link.url, { form: { outcome } }), 200, `${path} completed with outcome ${outcome}`);
    expect(await call('POST', link.url, { form: { outcome } }), 410, `${path} cannot be used twice`);
  };
  const usd = async (key: string) => {
    const body = expect(await call('GET', '/balance', { key }), 200, 'GET /balance');
    const entry = (body.balances as Array<{ currency: string; available: string; pending: string }>).find((b) => b.currency === 'USD');
    return entry ?? { currency: 'USD', available: '0.00', pending: '0.00' };
  };
  return { completeLink, usd };
}

export async function runJourney(
  baseUrl: string,
  options: JourneyOptions,
  say: Say = console.log,
): Promise<{ recipientKey: string; recipientHandle: string }> {
  const client = journeyClient(baseUrl, say);
  const { call, expect, equal, register } = client;
  const { completeLink, usd } = fiatSteps(client);

  const health = expect(await call('GET', '/health'), 200, 'service is up');
  equal(health.mode, 'sandbox', 'mode');

  const sender = await register('Sender');
  const recipient = await register('Recipient');
  await completeLink(sender.key, '/agent/setup-link', 'succeed');

  const instant = expect(
    await call('POST', '/transfers', {
      key: sender.key,
      body: { recipientHandle: recipient.handle, amount: 10, currency: 'USD', paymentMethod: 'instant' },
    }),
    200,
    'send 10.00 USD instant',
  ).transfer;
  equal(instant.amount, '10.00', 'amount');
  equal(instant.fee, '0.25', 'fee');
  equal(instant.totalDeducted, '10.25', 'totalDeducted');
  equal(instant.status, 'completed', 'status');
  equal((await usd(recipient.key)).available, '10.00', 'recipient USD available');

  const yen = expect(
    await call('POST', '/transfers', { key: sender.key, body: { recipientHandle: recipient.handle, amount: 1000, currency: 'JPY' } }),
    200,
    'send 1000 JPY',
  ).transfer;
  equal(yen.fee, '25', 'JPY fee');
  equal(yen.totalDeducted, '1025', 'JPY totalDeducted');

  const available = await achJourney(client, sender, recipient, options, say);

  const declined = await register('Declined');
  await completeLink(declined.key, '/agent/setup-link', 'decline');
  const refusedCard = expect(
    await call('POST', '/transfers', { key: declined.key, body: { recipientHandle: recipient.handle, amount: 5, currency: 'USD' } }),
    402,
    'a declined card gives 402',
  );
  equal(refusedCard.code, 'card_declined', 'code');
  equal((await usd(recipient.key)).available, available, 'recipient balance unchanged by the declined card');
  say('journey complete');
  return { recipientKey: recipient.key, recipientHandle: recipient.handle };
}

/** ACH: refused without a bank debit set up, pending once sent, settled 5 sandbox days later. Returns the recipient's USD available. */
async function achJourney(client: JourneyClient, sender: Account, recipient: Account, options: JourneyOptions, say: Say): Promise<string> {
  const { call, expect, equal } = client;
  const { completeLink, usd } = fiatSteps(client);
  const achBody = { recipientHandle: recipient.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' };
  const refused = expect(
    await call('POST', '/transfers', { key: sender.key, body: achBody }),
    409,
    'ACH without bank debit setup is refused',
  );
  equal(refused.code, 'ach_setup_required', 'code');
  equal(refused.needsBankDebitSetup, true, 'needsBankDebitSetup');

  await completeLink(sender.key, '/agent/bank-debit-link', 'succeed');
  const ach = expect(await call('POST', '/transfers', { key: sender.key, body: achBody }), 200, 'send 20.00 USD by ACH').transfer;
  equal(ach.status, 'pending', 'ACH status');
  equal(ach.fee, '0.16', 'ACH fee (0.8%)');
  equal((await usd(recipient.key)).pending, '20.00', 'recipient USD pending');
  if (options.sandboxClock === 'leave') {
    say('--  ACH settlement not checked: it needs the sandbox clock 5 days on, and this instance’s sandbox clock is left where it was');
    return '10.00';
  }
  expect(await call('POST', '/test-helpers/clock/advance', { body: { days: 5 } }), 200, 'sandbox clock moves 5 days');
  const history = expect(await call('GET', '/transfers', { key: sender.key }), 200, 'GET /transfers').transfers as Array<{
    id: string;
    status: string;
  }>;
  equal(history.find((t) => t.id === ach.id)?.status, 'completed', 'ACH status after 5 days');
  const settled = await usd(recipient.key);
  equal(settled.available, '30.00', 'recipient USD available after settlement');
  equal(settled.pending, '0.00', 'recipient USD pending after settlement');
  return '30.00';
}

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

export interface StablecoinJourneyResult {
  aliceKey: string;
  bobKey: string;
  withdrawalAddress: Address;
  timings: { depositCreditedMs: number; withdrawalConfirmedMs: number; fundingCreditedMs: number };
}

/**
 * The stablecoin journey on the embedded chain, checked on chain with viem: a faucet deposit is
 * credited and swept, an internal transfer by handle, a withdrawal to a fresh address, and a
 * funding link that credits once.
 */
export async function runStablecoinJourney(baseUrl: string, say: Say = console.log): Promise<StablecoinJourneyResult> {
  const { call, expect, equal, register } = journeyClient(baseUrl, say);
  const health = expect(await call('GET', '/health'), 200, 'service is up');
  const chain = createPublicClient({ transport: http(health.chain.rpcUrl as string) });
  const usdc = health.chain.tokens.USDC as Address;
  const onChain = (holder: Address) => chain.readContract({ address: usdc, abi: erc20, functionName: 'balanceOf', args: [holder] });
  const usdcOf = async (key: string) =>
    expect(await call('GET', '/stablecoin/balance', { key }), 200, 'GET /stablecoin/balance').USDC as string;
  const quietly = async (key: string) => (await call('GET', '/stablecoin/balance', { key })).body.USDC as string;

  const alice = await register('Alice');
  const bob = await register('Bob');
  expect(
    await call('POST', '/test-helpers/stablecoin/faucet', { body: { address: alice.depositAddress, amount: 100, currency: 'USDC' } }),
    200,
    'faucet sends 100 USDC to Alice’s deposit address',
  );
  const deposit = await waitFor(
    () => quietly(alice.key),
    (b) => b === '100.000000',
    30_000,
    'deposit credited',
  );
  say(`ok  deposit credited after ${deposit.ms} ms`);
  equal(await usdcOf(alice.key), '100.000000', 'Alice’s USDC');
  await waitFor(
    () => onChain(alice.depositAddress),
    (b) => b === 0n,
    30_000,
    'deposit swept',
  );
  say('ok  deposit swept from Alice’s deposit address to the hot wallet');

  const sent = expect(
    await call('POST', '/agent/transfer', { key: alice.key, body: { to: bob.handle, amount: 10, currency: 'USDC' } }),
    200,
    'Alice sends 10 USDC to Bob by handle',
  );
  equal(sent.fee, 0.149, 'fee');
  equal(sent.recipientAmount, 9.851, 'recipientAmount');
  equal(sent.status, 'complete', 'status');
  equal(await usdcOf(bob.key), '9.851000', 'Bob’s USDC');

  const withdrawalAddress = privateKeyToAccount(generatePrivateKey()).address;
  const started = Date.now();
  const withdrawal = expect(
    await call('POST', '/stablecoin/withdraw', { key: bob.key, body: { amount: 5, currency: 'USDC', address: withdrawalAddress } }),
    200,
    'Bob withdraws 5 USDC to a fresh address',
  );
  equal(withdrawal.fee, 0.0745, 'withdrawal fee');
  equal(withdrawal.net, 4.9255, 'withdrawal net');
  await waitFor(
    () => onChain(withdrawalAddress),
    (b) => b === 4_925_500n,
    30_000,
    'withdrawal on chain',
  );
  const confirmed = await waitFor(
    async () =>
      (await call('GET', '/stablecoin/transfers', { key: bob.key })).body.transfers.find((t: { type: string }) => t.type === 'withdrawal')
        ?.status,
    (status) => status === 'complete',
    30_000,
    'withdrawal complete',
  );
  const withdrawalConfirmedMs = Date.now() - started;
  say(`ok  4.9255 USDC on chain at the fresh address; withdrawal ${confirmed.value} after ${withdrawalConfirmedMs} ms`);
  equal(await usdcOf(bob.key), '4.851000', 'Bob’s USDC after the withdrawal');

  const link = expect(
    await call('POST', '/stablecoin/buy-session', { key: alice.key, body: { amount: 25, currency: 'USDC' } }),
    200,
    'Alice asks for a funding link',
  );
  expect(await call('GET', link.url), 200, 'the funding page shows what will happen');
  const funded = Date.now();
  expect(await call('POST', link.url, { form: { outcome: 'succeed' } }), 200, 'the funding link is completed');
  expect(await call('POST', link.url, { form: { outcome: 'succeed' } }), 410, 'the funding link cannot be used twice');
  await waitFor(
    () => quietly(alice.key),
    (b) => b === '115.000000',
    30_000,
    'funding credited',
  );
  const fundingCreditedMs = Date.now() - funded;
  say(`ok  funding credited once after ${fundingCreditedMs} ms`);
  say('stablecoin journey complete');
  return {
    aliceKey: alice.key,
    bobKey: bob.key,
    withdrawalAddress,
    timings: { depositCreditedMs: deposit.ms, withdrawalConfirmedMs, fundingCreditedMs },
  };
}

async function main(): Promise<void> {
  const given = process.env.BASE_URL?.replace(/\/+$/, '');
  if (given) {
    console.log(
      `journeys against ${given}; its sandbox clock is left where it was (without BASE_URL they run on an instance of their own)`,
    );
    await fetch(`${given}/health`).catch(() => {
      throw new JourneyError(`nothing answers at ${given}: start peerpay with \`npm start\`, or leave BASE_URL unset`);
    });
    await runJourney(given, { sandboxClock: 'leave' });
    await runStablecoinJourney(given);
    return;
  }
  const own = await startOwnInstance();
  console.log(
    `journeys on an instance of their own: dist/main.js at ${own.url}, DATA_DIR ${own.dataDir}; a peerpay you have running is not touched, nor its clock`,
  );
  try {
    await runJourney(own.url, { sandboxClock: 'advance' });
    await runStablecoinJourney(own.url);
  } finally {
    await own.stop();
    console.log('instance stopped and its DATA_DIR removed');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`journey failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
