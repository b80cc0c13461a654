// Starts peerpay on a free loopback port over a fresh test database, as a real HTTP server, and
// gives tests a small client for it (in process, through inject(); `url` for real HTTP clients).
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { openTestDatabase } from './test-database.js';
import { TEST_MASTER_SEED } from './test-fixtures.js';
import { acquireSharedChain } from './shared-chain.js';
import type { Database } from '../../src/db/database.js';
import type { ChainConnection } from '../../src/adapters/chain/connect-chain.js';
import { startJobs } from '../../src/jobs/job-runner.js';
import type { Clock } from '../../src/platform/clock.js';
import { generousLimitsFile } from './generous-limits.js';
import type { CircleDepositInputs } from '../../src/stablecoin/deposits/circle-deposit-services.js';
import type { CircleApi } from '../../src/adapters/circle/circle-port.js';

export { TEST_MASTER_SEED };

export interface TestServer {
  url: string;
  app: App;
  deps: Deps;
  /** Every log line the server wrote, for tests that check what is (not) logged. */
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, for malformed-input tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestServerOptions {
  /** Run on this DATA_DIR and leave it on close, so that a restart test can start another server on it (the test removes it). */
  dataDir?: string;
  /** This database instead of a fresh one (a restart test opens the same one again); close() closes it. */
  database?: Database;
  /** Run the background jobs as `npm start` does (chain jobs every CHAIN_POLL_INTERVAL_MS). */
  jobs?: boolean;
  /** Live mode: a clock the test moves (past the reconciliation delay) instead of the wall clock. */
  liveClock?: Clock;
  /**
   * Start an embedded chain of its own (in DATA_DIR) even where the worker's shared chain could
   * serve. A server on DATA_DIR, another seed, another chain or in live mode always does.
   */
  ownChain?: boolean;
  /** Another server's chain, borrowed (left running on close): two instances of one installation. */
  chain?: ChainConnection;
  /** WALLET_PROVIDER=circle's deposit side against this Circle (test/helpers/circle-deposits.ts). */
  circleDeposits?: CircleDepositInputs;
  /** WALLET_PROVIDER=circle: the Circle client the custody side uses (test/helpers/circle-custody.ts: the stand-in's, with short retries). */
  circleApi?: CircleApi;
}

export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-test-'));
  // Tests that are not about the per-account limits move more than a new account may (a tenth of
  // 10,000 a day): unless a test names its LIMITS_FILE (or '' for the defaults), limits far above
  // anything a test sends. The limits' own tests use the defaults or files of their own.
  const limitsFile = env.LIMITS_FILE ?? generousLimitsFile(dataDir);
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    MASTER_SEED: TEST_MASTER_SEED,
    LOG_LEVEL: 'info',
    PASSWORD_HASH_COST_LOG2: '12',
    JOB_INTERVAL_MS: '3600000',
    ...env,
    LIMITS_FILE: limitsFile,
  });
  const database = options.database ?? (await openTestDatabase());
  const sharesChain =
    !options.ownChain &&
    options.dataDir === undefined &&
    config.mode === 'sandbox' &&
    !config.chainRpcUrl &&
    config.masterSeedHex === TEST_MASTER_SEED &&
    config.chainId === 137;
  const chain = options.chain ? { ...options.chain, stop: async () => {} } : sharesChain ? await acquireSharedChain() : null;
  const deps = await createDeps(config, {
    database,
    ...(chain ? { chain } : {}),
    ...(options.liveClock ? { liveClock: options.liveClock } : {}),
    ...(options.circleDeposits ? { circleDeposits: options.circleDeposits } : {}),
    ...(options.circleApi ? { circleApi: options.circleApi } : {}),
  }).catch(async (error: unknown) => {
    await chain?.stop();
    throw error;
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const app = await buildApp(deps, { logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const jobs = options.jobs ? startJobs(deps, app.log) : null;
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  const url = `http://127.0.0.1:${address.port}`;

  // In process, through app.inject(): the whole of Fastify (hooks, parsing, validation,
  // serialisation, errors) without a socket. Tests about the socket itself use `url`.
  async function request(method: string, urlPath: string, options: RequestOptions = {}): Promise<TestResponse> {
    // What fetch() sends by default, so that the requests are the same as over the socket.
    const headers: Record<string, string> = {
      host: new URL(url).host,
      accept: '*/*',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'user-agent': 'node',
    };
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'text/plain;charset=UTF-8';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await app.inject({
      method: method as InjectOptions['method'],
      url: urlPath,
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const text = response.body;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.statusCode, headers: responseHeaders, body: parsed, text };
  }

  return {
    url,
    app,
    deps,
    logs,
    request,
    async close() {
      await app.close();
      await jobs?.stop();
      await deps.close();
      if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let userCounter = 0;

export interface TestUser {
  email: string;
  password: string;
  name: string;
  key: string;
  handle: string;
  depositAddress: string;
}

/** Registers a new user through the API. */
export async function registerUser(
  server: TestServer,
  overrides: Partial<{ email: string; name: string; password: string }> = {},
): Promise<TestUser> {
  userCounter++;
  const email = overrides.email ?? `user${userCounter}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  // Names hold letters only (no digits): the counter is spelled in letters, a for 0 to j for 9.
  const name = overrides.name ?? `Test${String(userCounter).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)} User`;
  const response = await server.request('POST', '/agent/register', { body: { email, password, name } });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${response.text}`);
  return {
    email,
    password,
    name,
    key: response.body.apiKey,
    handle: response.body.agentHandle,
    depositAddress: response.body.depositAddress,
  };
}

/** Asserts the shape of a problem document and returns it. */
export function expectProblem(response: TestResponse, status: number, code?: string): any {
  if (response.status !== status || (code !== undefined && response.body?.code !== code)) {
    throw new Error(`expected ${status} ${code ?? ''}, got ${response.status} ${response.text}`);
  }
  if (!String(response.headers.get('content-type')).startsWith('application/problem+json')) {
    throw new Error(`expected a problem document, got content-type ${response.headers.get('content-type')}`);
  }
  for (const field of ['type', 'title', 'status', 'detail', 'code']) {
    if (response.body?.[field] === undefined) throw new Error(`problem document lacks ${field}: ${response.text}`);
  }
  return response.body;
}
