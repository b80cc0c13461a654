// peerpay in live mode with real parts standing in for the outside world: PostgreSQL (a fresh
// database), a separately started anvil as the Polygon node (test/helpers/live-chain.ts) and the
// Stripe stand-in (test/fakes/stripe) reached through STRIPE_API_BASE, its webhooks signed and
// posted to POST /webhooks/stripe. With `walletProvider: 'circle'` the Circle stand-in
// (test/fakes/circle) holds the users' and the treasury's wallets on that same anvil, reached through
// CIRCLE_API_BASE, its notifications signed and posted to POST /webhooks/circle; the test drives it
// with `world.circle.sync()`. Live mode needs PostgreSQL (DESIGN §11), so these tests run where
// DATABASE_URL names a server: the PostgreSQL pass of CI.
import { createViemSandboxChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import type { Clock } from '../../src/platform/clock.js';
import { startCircleStandIn, type CircleStandIn } from '../fakes/circle/index.js';
import { startStripeStandIn, type StripeStandIn, type TestPaymentMethod } from '../fakes/stripe/index.js';
import { startLiveChain, type LiveChain } from './live-chain.js';
import { openTestDatabase } from './test-database.js';
import { TEST_MASTER_SEED, startTestServer, type TestServer, type TestUser } from './test-server.js';
import type { SetupEndpoint } from './fiat.js';

export const LIVE_STRIPE_SECRET_KEY = 'sk_test_peerpayLiveModeTests0123456789';
export const LIVE_STRIPE_WEBHOOK_SECRET = 'whsec_cGVlcnBheSBsaXZlIG1vZGUgdGVzdHM=';
export const LIVE_PUBLIC_URL = 'https://pay.example.test';
export const LIVE_CIRCLE_API_KEY = 'TEST_API_KEY:peerpay-live-mode-tests:0123456789abcdef';
export const LIVE_CIRCLE_ENTITY_SECRET = '5eed'.repeat(16);

/** The settings of WALLET_PROVIDER=circle on the stand-in (DESIGN §19). */
export function circleEnv(apiBase: string): Record<string, string> {
  return {
    WALLET_PROVIDER: 'circle',
    CIRCLE_API_KEY: LIVE_CIRCLE_API_KEY,
    CIRCLE_ENTITY_SECRET: LIVE_CIRCLE_ENTITY_SECRET,
    CIRCLE_API_BASE: apiBase,
    CIRCLE_BLOCKCHAIN: 'MATIC',
    CIRCLE_ACCOUNT_TYPE: 'SCA',
  };
}

/** The wall clock, moved forward by the test (webhook reconciliation waits 15 minutes). */
export class MovableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface LiveWorld {
  server: TestServer;
  stripe: StripeStandIn;
  chain: LiveChain;
  /** WALLET_PROVIDER=circle: the Circle stand-in; null with `self`. */
  circle: CircleStandIn | null;
  clock: MovableClock;
  close(): Promise<void>;
}

export const liveModeAvailable = (): boolean => Boolean(process.env.DATABASE_URL);
/** Why the live-mode tests did not run, when they did not. */
export const LIVE_MODE_NEEDS = 'live mode runs on PostgreSQL only, as in production: set DATABASE_URL';

/** The environment of a live-mode peerpay on these stand-ins (DESIGN §11's required settings). */
export function liveModeEnv(input: {
  databaseUrl: string;
  chain: Pick<LiveChain, 'rpcUrl' | 'tokens'>;
  stripeApiBase: string;
  masterSeed: string;
  stripeSecretKey: string;
  stripeWebhookSecret: string;
}): Record<string, string> {
  return {
    PEERPAY_MODE: 'live',
    DATABASE_URL: input.databaseUrl,
    CHAIN_RPC_URL: input.chain.rpcUrl,
    USDC_ADDRESS: input.chain.tokens.USDC,
    EURC_ADDRESS: input.chain.tokens.EURC,
    PUBLIC_URL: LIVE_PUBLIC_URL,
    MASTER_SEED: input.masterSeed,
    STRIPE_SECRET_KEY: input.stripeSecretKey,
    STRIPE_WEBHOOK_SECRET: input.stripeWebhookSecret,
    STRIPE_API_BASE: input.stripeApiBase,
  };
}

export async function startLiveWorld(
  options: { webhookMode?: 'auto' | 'manual'; env?: Record<string, string>; walletProvider?: 'self' | 'circle' } = {},
): Promise<LiveWorld> {
  if (!process.env.DATABASE_URL) throw new Error('live mode tests need DATABASE_URL (PostgreSQL)');
  // Stripe and peerpay share one clock, as they share the wall clock in production.
  const clock = new MovableClock();
  const stripe = await startStripeStandIn({
    secretKey: LIVE_STRIPE_SECRET_KEY,
    webhookSecret: LIVE_STRIPE_WEBHOOK_SECRET,
    webhookMode: options.webhookMode ?? 'auto',
    now: () => clock.now().getTime(),
  });
  const hotWallet = createHdWalletProvider(Buffer.from(TEST_MASTER_SEED.slice(2), 'hex')).hotWallet.address;
  const chain = await startLiveChain({ hotWallet });
  let circle: CircleStandIn | null = null;
  try {
    if (options.walletProvider === 'circle') {
      circle = await startCircleStandIn({
        apiKey: LIVE_CIRCLE_API_KEY,
        entitySecret: LIVE_CIRCLE_ENTITY_SECRET,
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        tokens: chain.tokens,
        now: () => clock.now().getTime(),
      });
    }
    const database = await openTestDatabase();
    const server = await startTestServer(
      {
        ...liveModeEnv({
          databaseUrl: database.url!,
          chain,
          stripeApiBase: stripe.apiBase,
          masterSeed: TEST_MASTER_SEED,
          stripeSecretKey: LIVE_STRIPE_SECRET_KEY,
          stripeWebhookSecret: LIVE_STRIPE_WEBHOOK_SECRET,
        }),
        STRIPE_TIMEOUT_MS: '1000',
        // Card money is credited available at once, as the tests of charges and payouts expect; live
        // mode's 72-hour hold is the subject of live-card-risk.test.ts, which sets its own.
        FIAT_HOLD_HOURS: '0',
        ...(circle ? circleEnv(circle.apiBase) : {}),
        ...options.env,
      },
      { database, liveClock: clock },
    );
    stripe.setWebhookUrl(`${server.url}/webhooks/stripe`);
    if (circle) {
      circle.setNotificationUrl(`${server.url}/webhooks/circle`);
      // The x402 relay key pays gas only; the operator funds it, as the hot wallet with `self`.
      const gas = createViemSandboxChainAdapter({ rpcUrl: chain.rpcUrl, chainId: chain.chainId });
      await gas.setNativeBalance({ address: server.deps.wallets.relayer.address, wei: 10n ** 20n });
    }
    return {
      server,
      stripe,
      chain,
      circle,
      clock,
      async close() {
        await server.close();
        await stripe.close();
        await circle?.close();
        await chain.stop();
      },
    };
  } catch (error) {
    await stripe.close();
    await circle?.close();
    await chain.stop();
    throw error;
  }
}

/** The id at the end of a stand-in page URL (a Checkout Session or an onboarding link). */
export function lastPathSegment(url: string): string {
  return new URL(url).pathname.split('/').pop()!;
}

/** Asks peerpay for a card or bank-debit link and completes its Checkout Session at the stand-in with `paymentMethod`. */
export async function completeSetup(
  world: LiveWorld,
  user: TestUser,
  endpoint: Exclude<SetupEndpoint, '/agent/connect-link'>,
  paymentMethod: TestPaymentMethod,
): Promise<string> {
  const link = await world.server.request('POST', endpoint, { key: user.key });
  if (link.status !== 200) throw new Error(`${endpoint}: ${link.status} ${link.text}`);
  const sessionId = lastPathSegment(link.body.url);
  world.stripe.completeCheckoutSession(sessionId, { paymentMethod });
  await world.stripe.webhooksIdle();
  return sessionId;
}

/** Asks peerpay for a payout onboarding link and finishes onboarding at the stand-in; returns the connected account. */
export async function completeOnboarding(world: LiveWorld, user: TestUser): Promise<string> {
  const link = await world.server.request('POST', '/agent/connect-link', { key: user.key });
  if (link.status !== 200) throw new Error(`/agent/connect-link: ${link.status} ${link.text}`);
  const account = world.stripe.accounts().find((a) => a.email === user.email);
  if (!account) throw new Error(`no connected account for ${user.email}`);
  world.stripe.completeOnboarding(account.id);
  await world.stripe.webhooksIdle();
  return account.id;
}
