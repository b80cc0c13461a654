// peerpay with WALLET_PROVIDER=circle against the repository's Circle stand-in (test/fakes/circle),
// which executes every transfer for real on the test's embedded chain.
//
// The environment recipe (also for an end-to-end or chaos run of the built service):
//   WALLET_PROVIDER=circle
//   CIRCLE_API_KEY=<the stand-in's apiKey>          e.g. TEST_API_KEY:peerpay-tests:0123456789abcdef
//   CIRCLE_ENTITY_SECRET=<its entitySecret>         64 hex digits (or CIRCLE_ENTITY_SECRET_FILE)
//   CIRCLE_API_BASE=<circle.apiBase>                the stand-in's http://127.0.0.1:<port>
//   (CIRCLE_WALLET_SET_ID unset: made at the first start and recorded; CIRCLE_ACCOUNT_TYPE SCA)
// The stand-in needs the chain first ({rpcUrl, chainId, tokens}); point its notifications at
// `${peerpay}/webhooks/circle` (setNotificationUrl) once peerpay listens. Nothing at the stand-in
// moves by itself: `circle.sync()` executes the transfers peerpay asked for (and sees deposits,
// and sends notifications); then peerpay's outbox job (deps.hotWalletOutbox.reconcile) follows
// them to COMPLETE, and the sweep, withdrawal and cold-transfer rounds end them. With the jobs
// running (startTestServer's `jobs: true`), call circle.sync() in a loop while waiting.
import { createCircleApi } from '../../src/adapters/circle/circle-client.js';
import type { CircleApi } from '../../src/adapters/circle/circle-port.js';
import type { ChainConnection } from '../../src/adapters/chain/connect-chain.js';
import { startCircleStandIn, type CircleStandIn } from '../fakes/circle/index.js';
import { acquireSharedChain } from './shared-chain.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

export const CIRCLE_API_KEY = 'TEST_API_KEY:peerpay-tests:0123456789abcdef';
export const CIRCLE_ENTITY_SECRET = 'cd'.repeat(32);

/** The variables that make a peerpay of this stand-in's. */
export function circleEnv(circle: Pick<CircleStandIn, 'apiBase'>): Record<string, string> {
  return {
    WALLET_PROVIDER: 'circle',
    CIRCLE_API_KEY,
    CIRCLE_ENTITY_SECRET,
    CIRCLE_API_BASE: circle.apiBase,
  };
}

/** The client peerpay would build, with short waits: a test's faults are answered in milliseconds. */
export function testCircleApi(
  circle: Pick<CircleStandIn, 'apiBase'>,
  chain: Pick<ChainConnection, 'tokens'>,
  accountType: 'SCA' | 'EOA' = 'SCA',
  maxRetries = 2,
): CircleApi {
  return createCircleApi({
    apiKey: CIRCLE_API_KEY,
    entitySecret: CIRCLE_ENTITY_SECRET,
    apiBase: circle.apiBase,
    blockchain: 'MATIC',
    accountType,
    tokens: { USDC: chain.tokens.USDC, EURC: chain.tokens.EURC },
    maxRetries,
    timeoutMs: 3_000,
    sleep: async () => undefined,
  });
}

export interface CircleServer {
  server: TestServer;
  circle: CircleStandIn;
  chain: ChainConnection;
  close(): Promise<void>;
}

/** A test server with WALLET_PROVIDER=circle on the worker's shared chain, and its stand-in. */
export async function startCircleServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<CircleServer> {
  const chain = await acquireSharedChain();
  if (!chain) throw new Error("the Circle tests run on the worker's shared chain (vitest's global setup)");
  const circle = await startCircleStandIn({
    apiKey: CIRCLE_API_KEY,
    entitySecret: CIRCLE_ENTITY_SECRET,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokens: { USDC: chain.tokens.USDC, EURC: chain.tokens.EURC },
  });
  try {
    const accountType = env.CIRCLE_ACCOUNT_TYPE === 'EOA' ? 'EOA' : 'SCA';
    const server = await startTestServer(
      { ...circleEnv(circle), ...env },
      { circleApi: testCircleApi(circle, chain, accountType), ...options, chain },
    );
    circle.setNotificationUrl(`${server.url}/webhooks/circle`);
    return {
      server,
      circle,
      chain,
      async close() {
        await server.close();
        await circle.close();
        await chain.stop();
      },
    };
  } catch (error) {
    await circle.close();
    await chain.stop();
    throw error;
  }
}

/** Lets the stand-in execute what peerpay asked, then runs peerpay's outbox round: `rounds` times. */
export async function settleAtCircle(cs: Pick<CircleServer, 'server' | 'circle'>, rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await cs.circle.sync();
    await cs.server.deps.hotWalletOutbox.reconcile(50);
  }
}
