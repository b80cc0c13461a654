import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('defaults to sandbox mode on port 3000 with PGlite in ./data', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('sandbox');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.maxFiatTransferMajor).toBe(1_000_000n);
    expect(config.passwordHashCostLog2).toBe(17);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ PEERPAY_MODE: 'prod' }, /PEERPAY_MODE/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be a URL/],
    [{ MASTER_SEED: 'abc' }, /MASTER_SEED must be 32 bytes/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ MAX_FIAT_TRANSFER_MAJOR: '-5' }, /MAX_FIAT_TRANSFER_MAJOR/],
    [
      { PEERPAY_MODE: 'live' },
      /PEERPAY_MODE=live requires DATABASE_URL, CHAIN_RPC_URL, USDC_ADDRESS, EURC_ADDRESS, MASTER_SEED or MASTER_SEED_FILE, PUBLIC_URL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET \(not set\)/,
    ],
    [
      {
        PEERPAY_MODE: 'live',
        CHAIN_RPC_URL: 'http://127.0.0.1:8545',
        USDC_ADDRESS: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        EURC_ADDRESS: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D',
      },
      /requires DATABASE_URL, MASTER_SEED/,
    ],
    [{ CHAIN_RPC_URL: 'http://127.0.0.1:8545' }, /USDC_ADDRESS is required with CHAIN_RPC_URL/],
    [
      { CHAIN_RPC_URL: 'http://127.0.0.1:8545', USDC_ADDRESS: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
      /EURC_ADDRESS is required with CHAIN_RPC_URL/,
    ],
    [{ PUBLIC_URL: 'https://pay.example.com/?x=1' }, /PUBLIC_URL must not have a query/],
    [
      { CHAIN_RPC_URL: 'http://127.0.0.1:8545', USDC_ADDRESS: '0x123', EURC_ADDRESS: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D' },
      /USDC_ADDRESS must be/,
    ],
    [{ CHAIN_ID: '1' }, /CHAIN_ID must be 137 for the embedded chain/],
    [{ CHAIN_CONFIRMATIONS: '0' }, /CHAIN_CONFIRMATIONS must be between/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('strips a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://pay.example.com/' }).publicUrl).toBe('https://pay.example.com');
  });

  it('sets no Stripe settings and trusts no proxy by default', () => {
    const config = loadConfig({});
    expect(config.stripe).toBeUndefined();
    expect(config.trustProxy).toBe(false);
  });
});

// Values shaped like the real thing but made up here; the tests check that no message repeats them.
const SECRET_KEY = 'sk_test_51AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const WEBHOOK_SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==';
const SEED = '0x' + '5e'.repeat(32);

const LIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PEERPAY_MODE: 'live',
  DATABASE_URL: 'postgres://peerpay:db-password@db.internal:5432/peerpay',
  CHAIN_RPC_URL: 'https://polygon-rpc.example.com',
  USDC_ADDRESS: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  EURC_ADDRESS: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D',
  MASTER_SEED: SEED,
  PUBLIC_URL: 'https://pay.example.com',
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});

function without(env: Record<string, string>, ...names: string[]): Record<string, string> {
  const copy = { ...env };
  for (const name of names) delete copy[name];
  return copy;
}

/** The message loadConfig throws for `env`; fails the test if it does not throw a ConfigError. */
function messageFor(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

function expectNoSecrets(message: string, ...extra: string[]): void {
  for (const secret of [SECRET_KEY, WEBHOOK_SECRET, SEED, SEED.slice(2), ...extra]) expect(message).not.toContain(secret);
  // Not even a recognisable part of one.
  expect(message).not.toMatch(/51AbCdEf|c2VjcmV0|5e5e5e/);
}

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-config-test-'));
afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));
let fileCounter = 0;
function seedFile(content: string): string {
  const file = path.join(tempDir, `seed-${++fileCounter}`);
  fs.writeFileSync(file, content, { mode: 0o600 });
  return file;
}

describe('loadConfig in live mode (DESIGN §11)', () => {
  it('loads a complete live environment, with the Stripe settings', () => {
    const config = loadConfig(LIVE_ENV);
    expect(config.mode).toBe('live');
    expect(config.databaseUrl).toBe(LIVE_ENV.DATABASE_URL);
    expect(config.chainRpcUrl).toBe(LIVE_ENV.CHAIN_RPC_URL);
    expect(config.chainId).toBe(137);
    expect(config.tokenAddresses).toEqual({ USDC: LIVE_ENV.USDC_ADDRESS, EURC: LIVE_ENV.EURC_ADDRESS });
    // Card money is held 72 hours in live mode unless FIAT_HOLD_HOURS says otherwise (DESIGN §16).
    expect(config.fiatHoldMs).toBe(72 * 3600 * 1000);
    expect(config.masterSeedHex).toBe(SEED);
    expect(config.publicUrl).toBe('https://pay.example.com');
    expect(config.stripe).toEqual({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: 'https://api.stripe.com',
      requestTimeoutMs: 15_000,
    });
    expect(Object.isFrozen(config.stripe)).toBe(true);
    expect(config.trustProxy).toBe(false);
  });

  it.each(['sk_live_abc123', 'sk_test_X', 'rk_live_0Zz', 'rk_test_abcDEF123'])('accepts the secret key shape %s', (key) => {
    expect(loadConfig({ ...LIVE_ENV, STRIPE_SECRET_KEY: key }).stripe?.secretKey).toBe(key);
  });

  it('accepts another CHAIN_ID with the external chain', () => {
    expect(loadConfig({ ...LIVE_ENV, CHAIN_ID: '80002' }).chainId).toBe(80002);
  });

  it.each([
    ['http://127.0.0.1:12111', 'http://127.0.0.1:12111'],
    ['http://localhost:12111/', 'http://localhost:12111'],
    ['https://api.stripe.com:443', 'https://api.stripe.com'],
    ['https://stripe-standin.internal:8443', 'https://stripe-standin.internal:8443'],
  ])('takes STRIPE_API_BASE %s as %s', (value, expected) => {
    expect(loadConfig({ ...LIVE_ENV, STRIPE_API_BASE: value }).stripe?.apiBase).toBe(expected);
  });

  it.each([
    ['DATABASE_URL'],
    ['CHAIN_RPC_URL'],
    ['USDC_ADDRESS'],
    ['EURC_ADDRESS'],
    ['PUBLIC_URL'],
    ['STRIPE_SECRET_KEY'],
    ['STRIPE_WEBHOOK_SECRET'],
  ])('refuses to start without %s, in one line naming it and nothing else', (name) => {
    for (const env of [without(LIVE_ENV, name), { ...LIVE_ENV, [name]: '' }]) {
      const message = messageFor(env);
      expect(message).toBe(`PEERPAY_MODE=live requires ${name} (not set)`);
      expect(message).not.toContain('\n');
      expectNoSecrets(message);
    }
  });

  it('refuses to start without a master seed, naming both ways to give one', () => {
    expect(messageFor(without(LIVE_ENV, 'MASTER_SEED'))).toBe('PEERPAY_MODE=live requires MASTER_SEED or MASTER_SEED_FILE (not set)');
  });

  it('names every missing variable at once', () => {
    expect(messageFor(without(LIVE_ENV, 'DATABASE_URL', 'STRIPE_WEBHOOK_SECRET'))).toBe(
      'PEERPAY_MODE=live requires DATABASE_URL, STRIPE_WEBHOOK_SECRET (not set)',
    );
  });

  it.each([
    ['STRIPE_SECRET_KEY', 'pk_live_abc123', /^STRIPE_SECRET_KEY must be a Stripe secret or restricted key/],
    ['STRIPE_SECRET_KEY', 'sk_prod_abc123', /^STRIPE_SECRET_KEY must be/],
    ['STRIPE_SECRET_KEY', 'sk_live_', /^STRIPE_SECRET_KEY must be/],
    ['STRIPE_SECRET_KEY', `${SECRET_KEY}\n`, /^STRIPE_SECRET_KEY must be/],
    ['STRIPE_SECRET_KEY', ` ${SECRET_KEY}`, /^STRIPE_SECRET_KEY must be/],
    ['STRIPE_SECRET_KEY', `${SECRET_KEY}-x`, /^STRIPE_SECRET_KEY must be/],
    ['STRIPE_SECRET_KEY', WEBHOOK_SECRET, /^STRIPE_SECRET_KEY must be/],
    ['STRIPE_WEBHOOK_SECRET', SECRET_KEY, /^STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret/],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_', /^STRIPE_WEBHOOK_SECRET must be/],
    ['STRIPE_WEBHOOK_SECRET', `${WEBHOOK_SECRET} `, /^STRIPE_WEBHOOK_SECRET must be/],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_abc-def', /^STRIPE_WEBHOOK_SECRET must be/],
    ['MASTER_SEED', SEED.slice(0, 40), /^MASTER_SEED must be 32 bytes of hex/],
    ['MASTER_SEED', `${SEED}00`, /^MASTER_SEED must be 32 bytes of hex/],
    ['PUBLIC_URL', 'ftp://pay.example.com', /^PUBLIC_URL must use/],
    ['PUBLIC_URL', 'pay.example.com', /^PUBLIC_URL must/],
    ['DATABASE_URL', 'mysql://root:db-password@db/peerpay', /^DATABASE_URL must use/],
    ['CHAIN_RPC_URL', 'ws://node:8546', /^CHAIN_RPC_URL must use/],
    ['USDC_ADDRESS', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c335', /^USDC_ADDRESS must be/],
    ['EURC_ADDRESS', 'EURC', /^EURC_ADDRESS must be/],
    ['STRIPE_API_BASE', 'https://api.stripe.com/v1', /^STRIPE_API_BASE must be an http or https URL with no path/],
    ['STRIPE_API_BASE', 'https://api.stripe.com?x=1', /^STRIPE_API_BASE must be an http or https URL with no path/],
    ['STRIPE_API_BASE', 'https://api.stripe.com/#x', /^STRIPE_API_BASE must be/],
    ['STRIPE_API_BASE', 'https://user:pass@api.stripe.com', /^STRIPE_API_BASE must be/],
    ['STRIPE_API_BASE', 'ftp://api.stripe.com', /^STRIPE_API_BASE must use http: or https:/],
    ['STRIPE_API_BASE', 'api.stripe.com', /^STRIPE_API_BASE must be a URL/],
  ])('refuses %s=%j with one line naming it, quoting no secret', (name, value, message) => {
    const text = messageFor({ ...LIVE_ENV, [name]: value });
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
    expectNoSecrets(text, 'db-password', 'pass@');
  });

  it('validates Stripe settings that are given in sandbox mode too, but keeps them out of the config', () => {
    expect(messageFor({ STRIPE_SECRET_KEY: 'nonsense' })).toMatch(/^STRIPE_SECRET_KEY must be/);
    expect(loadConfig({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }).stripe).toBeUndefined();
  });
});

describe('MASTER_SEED_FILE', () => {
  it.each([
    ['plain hex', '5e'.repeat(32)],
    ['0x and a trailing newline', `0x${'5e'.repeat(32)}\n`],
    ['surrounding whitespace', `  \n${'5E'.repeat(32)}\t\n`],
  ])('is read in live mode (%s)', (_label, content) => {
    const config = loadConfig({ ...without(LIVE_ENV, 'MASTER_SEED'), MASTER_SEED_FILE: seedFile(content) });
    expect(config.masterSeedHex).toBe(content.trim());
    expect(Buffer.from(config.masterSeedHex!.replace(/^0x/, ''), 'hex')).toHaveLength(32);
  });

  it('is read in sandbox mode too', () => {
    expect(loadConfig({ MASTER_SEED_FILE: seedFile(SEED) }).masterSeedHex).toBe(SEED);
  });

  it('may be a relative path', () => {
    const file = seedFile(SEED);
    expect(loadConfig({ MASTER_SEED_FILE: path.relative(process.cwd(), file) }).masterSeedHex).toBe(SEED);
  });

  it('must exist', () => {
    const missing = path.join(tempDir, 'no-such-seed');
    expect(messageFor({ ...without(LIVE_ENV, 'MASTER_SEED'), MASTER_SEED_FILE: missing })).toBe(
      `MASTER_SEED_FILE ${missing} does not exist`,
    );
  });

  it('must be a file', () => {
    expect(messageFor({ MASTER_SEED_FILE: tempDir })).toBe(`MASTER_SEED_FILE ${tempDir} is not a file`);
  });

  it.each([
    ['too short', SEED.slice(0, 50)],
    ['too long', `${SEED}ab`],
    ['not hex', 'zz'.repeat(32)],
    ['two seeds', `${SEED}\n${SEED}`],
    ['empty', ''],
    ['a secret key instead', SECRET_KEY],
  ])('must hold 32 bytes of hex, not %s, and the message does not quote it', (_label, content) => {
    const file = seedFile(content);
    const message = messageFor({ ...without(LIVE_ENV, 'MASTER_SEED'), MASTER_SEED_FILE: file });
    expect(message).toBe(`MASTER_SEED_FILE ${file} must hold 32 bytes of hex (64 hex digits, optional 0x)`);
    expectNoSecrets(message);
  });

  it('is not read whole when it is large', () => {
    const file = seedFile(`${'5e'.repeat(32)}\n`.repeat(100));
    const message = messageFor({ MASTER_SEED_FILE: file });
    expect(message).toMatch(/^MASTER_SEED_FILE .* must hold 32 bytes of hex/);
    expectNoSecrets(message);
  });

  it('cannot be set together with MASTER_SEED', () => {
    const message = messageFor({ ...LIVE_ENV, MASTER_SEED_FILE: seedFile(SEED) });
    expect(message).toBe('MASTER_SEED and MASTER_SEED_FILE are both set; set one of them');
    expectNoSecrets(message);
    expect(messageFor({ MASTER_SEED: SEED, MASTER_SEED_FILE: '/nonexistent' })).toMatch(/both set/);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['FALSE', false],
    ['true', true],
    [' True ', true],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1,::1', ['10.0.0.0/8', '192.168.1.1', '::1']],
    ['fd00::/8', ['fd00::/8']],
    ['loopback,uniquelocal,linklocal', ['loopback', 'uniquelocal', 'linklocal']],
  ])('takes %j as %j', (value, expected) => {
    const config = loadConfig(value === undefined ? {} : { TRUST_PROXY: value });
    expect(config.trustProxy).toEqual(expected);
    if (Array.isArray(expected)) expect(Object.isFrozen(config.trustProxy)).toBe(true);
  });

  it.each(['1', '2', '0'])('refuses the hop count %s, which Fastify 5 ignores', (value) => {
    expect(messageFor({ TRUST_PROXY: value })).toMatch(/^TRUST_PROXY cannot be a hop count/);
  });

  it.each(['yes', '10.0.0.0/33', '::1/129', '10.0.0.1,', '300.1.1.1', 'proxy.internal', '10.0.0.0/8/8', '10.0.0.0/'])(
    'refuses %j',
    (value) => {
      const message = messageFor({ TRUST_PROXY: value });
      expect(message).toMatch(/^TRUST_PROXY must be true, false, or a comma-separated list of IP addresses, CIDRs/);
      expect(message).not.toContain('\n');
    },
  );
});

describe('treasury settings (decision 0019)', () => {
  const cold = '0x52908400098527886E0F7030069857D2E4169EE7';

  it('defaults: 1 POL of gas, a 2,000 gwei fee cap, replacement after 3 minutes, no ceiling, floor or operator token', () => {
    expect(loadConfig({}).treasury).toEqual({
      minGasWei: 10n ** 18n,
      maxFeePerGasWei: 2_000n * 10n ** 9n,
      replaceAfterMs: 180_000,
      withdrawalWaitAlertMs: 900_000,
      maxMinor: {},
      minMinor: {},
      coldAddress: undefined,
      operatorToken: undefined,
    });
  });

  it('reads ceilings and floors in major units, exactly, as minor units', () => {
    const t = loadConfig({
      HOT_WALLET_MAX_USDC: '5000',
      HOT_WALLET_MIN_USDC: '250.5',
      HOT_WALLET_MAX_EURC: '0.000001',
      COLD_WALLET_ADDRESS: cold,
    }).treasury;
    expect(t.maxMinor).toEqual({ USDC: 5_000_000_000n, EURC: 1n });
    expect(t.minMinor).toEqual({ USDC: 250_500_000n });
    expect(t.coldAddress).toBe(cold);
  });

  it.each([
    [{ HOT_WALLET_MAX_USDC: '100' }, /COLD_WALLET_ADDRESS/],
    [{ HOT_WALLET_MAX_USDC: '100', HOT_WALLET_MIN_USDC: '101', COLD_WALLET_ADDRESS: cold }, /HOT_WALLET_MIN_USDC must not be above/],
    [{ HOT_WALLET_MIN_EURC: '1.0000001' }, /HOT_WALLET_MIN_EURC must be an amount/],
    [{ HOT_WALLET_MIN_EURC: '-1' }, /HOT_WALLET_MIN_EURC must be an amount/],
    [{ COLD_WALLET_ADDRESS: '0x1234' }, /COLD_WALLET_ADDRESS/],
    [{ OPERATOR_TOKEN: 'short' }, /OPERATOR_TOKEN must be 32 to 256/],
    [{ OPERATOR_TOKEN: `${'a'.repeat(31)} b` }, /OPERATOR_TOKEN must be 32 to 256/],
    [{ HOT_WALLET_MIN_GAS_WEI: '1e18' }, /HOT_WALLET_MIN_GAS_WEI must be a whole number of wei/],
    [{ CHAIN_REPLACE_AFTER_MS: '10' }, /CHAIN_REPLACE_AFTER_MS must be between/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('fleet settings', () => {
  it('default to no Redis, a prefix named after the database, no drain delay and a 15 s bound', () => {
    const pglite = loadConfig({});
    expect(pglite.redisUrl).toBeUndefined();
    expect(pglite.redisKeyPrefix).toBe('peerpay:pglite:');
    expect(pglite.drainDelayMs).toBe(0);
    expect(pglite.shutdownTimeoutMs).toBe(15_000);
    const postgres = loadConfig({ DATABASE_URL: 'postgres://peerpay@db.internal:5432/peerpay_eu', REDIS_URL: 'redis://cache:6379/2' });
    expect(postgres.redisKeyPrefix).toBe('peerpay:peerpay_eu:');
    expect(postgres.redisUrl).toBe('redis://cache:6379/2');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'pp-staging:' }).redisKeyPrefix).toBe('pp-staging:');
  });

  it.each([
    [{ REDIS_URL: 'http://cache:6379' }, /^REDIS_URL must use redis: or rediss:$/],
    [{ REDIS_URL: 'not a url' }, /^REDIS_URL must be a URL$/],
    [{ REDIS_KEY_PREFIX: 'has space' }, /^REDIS_KEY_PREFIX must be 1 to 100 printable ASCII characters/],
    [{ DRAIN_DELAY_MS: '-1' }, /^DRAIN_DELAY_MS must be a whole number/],
    [{ SHUTDOWN_TIMEOUT_MS: '10' }, /^SHUTDOWN_TIMEOUT_MS must be between 1000 and 600000/],
  ])('refuse %j', (env, message) => {
    expect(messageFor(env)).toMatch(message);
  });

  it('never echo the Redis URL, which may carry a password', () => {
    expect(messageFor({ REDIS_URL: 'http://:s3cret@cache:6379' })).not.toContain('s3cret');
  });
});

describe('group commit settings', () => {
  it('default to batches of up to 64 transfers, closed after 2 ms, 4 at once', () => {
    expect(loadConfig({}).groupCommit).toEqual({ maxBatch: 64, maxWaitMs: 2, concurrency: 4 });
    expect(loadConfig({ GROUP_COMMIT_MAX_BATCH: '1', GROUP_COMMIT_MAX_WAIT_MS: '0', GROUP_COMMIT_CONCURRENCY: '8' }).groupCommit).toEqual({
      maxBatch: 1,
      maxWaitMs: 0,
      concurrency: 8,
    });
  });

  it.each([
    [{ GROUP_COMMIT_MAX_BATCH: '0' }, /^GROUP_COMMIT_MAX_BATCH must be between 1 and 128/],
    [{ GROUP_COMMIT_MAX_BATCH: '129' }, /^GROUP_COMMIT_MAX_BATCH must be between 1 and 128/],
    [{ GROUP_COMMIT_MAX_WAIT_MS: '1.5' }, /^GROUP_COMMIT_MAX_WAIT_MS must be a whole number/],
    [{ GROUP_COMMIT_CONCURRENCY: '0' }, /^GROUP_COMMIT_CONCURRENCY must be between 1 and 32/],
  ])('refuse %j', (env, message) => {
    expect(messageFor(env)).toMatch(message);
  });
});

describe('webhook delivery settings', () => {
  it('default to a 10 s exchange, 16 sockets per process and 2 per endpoint', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ timeoutMs: 10_000, maxSockets: 16, maxSocketsPerEndpoint: 2 });
    expect(loadConfig({ WEBHOOK_MAX_SOCKETS: '4', WEBHOOK_MAX_SOCKETS_PER_ENDPOINT: '1' }).webhooks).toMatchObject({
      maxSockets: 4,
      maxSocketsPerEndpoint: 1,
    });
  });

  it.each([
    [{ WEBHOOK_MAX_SOCKETS: '0' }, /^WEBHOOK_MAX_SOCKETS must be between 1 and 1024/],
    [{ WEBHOOK_MAX_SOCKETS_PER_ENDPOINT: '65' }, /^WEBHOOK_MAX_SOCKETS_PER_ENDPOINT must be between 1 and 64/],
  ])('refuse %j', (env, message) => {
    expect(messageFor(env)).toMatch(message);
  });
});
