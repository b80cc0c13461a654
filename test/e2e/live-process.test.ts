// peerpay in live mode as an operator runs it: the compiled service (`node dist/main.js`) in its own process with
// PEERPAY_MODE=live, on a fresh PostgreSQL database, a separately started anvil standing in for
// Polygon and the Stripe stand-in, whose webhooks (auto mode) reach the process's
// POST /webhooks/stripe. Everything is checked from outside: the public API, what the stand-in
// recorded and what the chain holds. Secrets are fresh per run so that a leak cannot hide behind a
// value that also appears for another reason.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { startStripeStandIn, type StripeStandIn } from '../fakes/stripe/index.js';
import { LIVE_MODE_NEEDS, liveModeEnv } from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';
import { startLiveChain, type LiveChain } from '../helpers/live-chain.js';
import { lastPathSegment } from '../helpers/live-mode.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { freePort } from '../helpers/free-port.js';
import { peerpayProcess, type PeerpayProcess } from '../chaos/support/peerpay-process.js';
import { callOnce } from '../chaos/support/retrying-client.js';
import { distMain } from '../helpers/built-service.js';

const alnum = (bytes: number) => randomBytes(bytes).toString('hex');
const SECRET_KEY = `sk_test_e2e${alnum(16)}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const MASTER_SEED = `0x${alnum(32)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface User {
  email: string;
  key: string;
  handle: string;
  depositAddress: Address;
}

describe.runIf(runsIf(process.env.DATABASE_URL, LIVE_MODE_NEEDS))('peerpay as a live-mode process', () => {
  let database: { url: string; drop(): Promise<void> };
  let chain: LiveChain;
  let stripe: StripeStandIn;
  let service: PeerpayProcess;
  let env: Record<string, string>;
  let sender: User;
  let recipient: User;

  /** One request; throws when no answer came at all. */
  async function api(method: string, path: string, options: { key?: string; body?: unknown; idempotencyKey?: string } = {}) {
    const answer = await callOnce(service.baseUrl, { method, path, ...options });
    if (!answer) throw new Error(`${method} ${path}: no answer`);
    return answer;
  }

  async function register(label: string): Promise<User> {
    const email = `${label}-${alnum(4)}@example.com`;
    const answer = await api('POST', '/agent/register', {
      body: { email, password: 'correct horse battery', name: `Live ${label.replace(/[^a-z]/gi, '')}` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return { email, key: answer.body.apiKey, handle: answer.body.agentHandle, depositAddress: answer.body.depositAddress };
  }

  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  const usdBalance = async (user: User) =>
    ((await api('GET', '/balance', { key: user.key })).body.balances as { currency: string; available: string; pending: string }[]).find(
      (b) => b.currency === 'USD',
    );

  beforeAll(async () => {
    database = (await createPostgresTestDatabase())!;
    const hotWallet = createHdWalletProvider(Buffer.from(MASTER_SEED.slice(2), 'hex')).hotWallet.address;
    chain = await startLiveChain({ hotWallet });
    stripe = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookMode: 'auto' });
    env = {
      ...liveModeEnv({
        databaseUrl: database.url,
        chain,
        stripeApiBase: stripe.apiBase,
        masterSeed: MASTER_SEED,
        stripeSecretKey: SECRET_KEY,
        stripeWebhookSecret: WEBHOOK_SECRET,
      }),
      STRIPE_TIMEOUT_MS: '5000',
      // Received card money is paid out at once here; live mode's 72-hour hold is tested in test/live/live-card-risk.test.ts.
      FIAT_HOLD_HOURS: '0',
      // Jobs (payouts, deposits, sweeps, withdrawals) every 200 ms, so the journeys take seconds.
      JOB_INTERVAL_MS: '200',
      CHAIN_POLL_INTERVAL_MS: '200',
      // info, as in production: the level whose lines would carry a leaked secret.
      LOG_LEVEL: 'info',
    };
    service = await peerpayProcess('live-e2e', env);
    stripe.setWebhookUrl(`${service.baseUrl}/webhooks/stripe`);
    await service.start();
    sender = await register('sender');
    recipient = await register('recipient');
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await stripe?.close();
    await chain?.stop();
    await database?.drop();
  });

  it('says it is live and serves no test helpers', async () => {
    const health = await api('GET', '/health');
    expect(health.body).toMatchObject({ status: 'ok', mode: 'live' });
    expect((await api('POST', '/test-helpers/clock/advance', { body: { days: 1 } })).status).toBe(404);
    expect((await api('POST', '/test-helpers/stablecoin/faucet', { body: {} })).status).toBe(404);
  });

  it('a card saved through Checkout pays an instant transfer: completed, one PaymentIntent', async () => {
    const link = await api('POST', '/agent/setup-link', { key: sender.key });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    stripe.completeCheckoutSession(lastPathSegment(link.body.url), { paymentMethod: 'pm_card_visa' });
    await stripe.webhooksIdle();

    const sent = await api('POST', '/transfers', {
      key: sender.key,
      idempotencyKey: 'e2e-card-1',
      body: { recipientHandle: recipient.handle, amount: 12.5, currency: 'USD', paymentMethod: 'instant' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.transfer).toMatchObject({ status: 'completed', amount: '12.50', currency: 'USD' });
    const intents = stripe.paymentIntents().filter((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      status: 'succeeded',
      currency: 'usd',
      amount: Math.round(Number(sent.body.transfer.totalDeducted) * 100),
    });
    await stripe.webhooksIdle();
    expect(await usdBalance(recipient)).toMatchObject({ available: '12.50', pending: '0.00' });
  });

  it('after Connect onboarding the payout job pays the balance out: one Stripe transfer, balance 0, a payout in /transactions', async () => {
    const link = await api('POST', '/agent/connect-link', { key: recipient.key });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const account = stripe.accounts().find((a) => a.email === recipient.email);
    expect(account).toBeDefined();
    stripe.completeOnboarding(account!.id);
    await stripe.webhooksIdle();

    await until(
      'recipient balance paid out',
      () => usdBalance(recipient),
      (b) => b?.available === '0.00',
    );
    // A few more job rounds: still exactly one transfer.
    await sleep(1000);
    const transfers = stripe.transfers().filter((t) => t.destination === account!.id);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 1250, currency: 'usd' });
    const history = await api('GET', '/transactions', { key: recipient.key });
    expect(history.status).toBe(200);
    expect(history.body.transactions.filter((t: { type: string }) => t.type === 'payout')).toHaveLength(1);
  });

  it('a deposit to the depositAddress is credited, and a withdrawal reaches the chain', async () => {
    await chain.mint({ to: recipient.depositAddress, token: 'USDC', amountMinor: 25_000_000n });
    await until(
      'deposit credited',
      async () => (await api('GET', '/stablecoin/balance', { key: recipient.key })).body.USDC,
      (usdc) => usdc === '25.000000',
    );

    const destination = privateKeyToAccount(`0x${alnum(32)}`).address;
    // The hot wallet holds only what the sweep job has moved there; a withdrawal asked for before
    // is accepted all the same (pending, with no transaction yet) and sent once the sweep arrives.
    const withdrawal = await api('POST', '/stablecoin/withdraw', {
      key: recipient.key,
      idempotencyKey: 'e2e-withdraw-1',
      body: { amount: 10, currency: 'USDC', address: destination },
    });
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200);
    expect(withdrawal.body.status).toBe('pending');
    if (withdrawal.body.txId !== null) expect(withdrawal.body.txId).toMatch(/^0x[0-9a-f]{64}$/);
    const reader = createPublicClient({ transport: http(chain.rpcUrl) });
    const onChain = await until(
      'withdrawal on chain',
      () => reader.readContract({ address: chain.tokens.USDC, abi: erc20Abi, functionName: 'balanceOf', args: [destination] }),
      (balance) => balance > 0n,
    );
    expect(onChain).toBe(BigInt(Math.round(withdrawal.body.net * 1_000_000)));
    expect((await api('GET', '/stablecoin/balance', { key: recipient.key })).body.USDC).toBe('15.000000');
  });

  it('a live start without STRIPE_SECRET_KEY exits with code 2 and one stderr line naming it, before listening', async () => {
    const port = await freePort();
    const { STRIPE_SECRET_KEY: _omitted, ...withoutKey } = env;
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...withoutKey, PORT: String(port) };
    delete childEnv.STRIPE_SECRET_KEY;
    const child = spawn(process.execPath, [distMain], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    const lines = stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toContain('STRIPE_SECRET_KEY');
    expect(stdout).not.toContain('listening');
    expect(stderr + stdout).not.toContain(WEBHOOK_SECRET);
    expect(stderr + stdout).not.toContain(MASTER_SEED.slice(2));
    expect(await callOnce(`http://127.0.0.1:${port}`, { method: 'GET', path: '/health' })).toBeNull();
  }, 60_000);

  it('never writes the Stripe secret key, the webhook secret or the master seed', async () => {
    const output = service.output();
    expect(output).toContain('peerpay is listening');
    for (const secret of [SECRET_KEY, WEBHOOK_SECRET, MASTER_SEED.slice(2)]) expect(output.includes(secret)).toBe(false);
  });
});
