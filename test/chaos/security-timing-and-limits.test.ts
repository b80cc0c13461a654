// Registration, sign-in and the rate limits, on one peerpay instance with a real password hash cost
// (2^16) and small limits: register and sign-in spend the same work whether or not the e-mail has an
// account, so the time of an answer tells no more than the answer; the answers the contract makes
// alike are alike to the byte; and every limit answers 429 with Retry-After and a problem document,
// and cannot be stepped around (other paths of the same group, malformed requests, guessed keys,
// X-Forwarded-For), and a refused request moves no money. Every client talks from its own loopback
// address (127.0.0.x) and every check uses fresh accounts, so that each starts with full budgets and
// no wrong passwords counted against it.
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, expectProblem, type TestResponse, type TestServer, type TestUser } from '../helpers/test-server.js';
import { faucet, mined, drainDeposits } from '../helpers/stablecoin-chain.js';
import { issueApiKey } from '../../src/accounts/api-keys.js';
import { recordChaos } from './support/report.js';
import { byProfile, chaosSettings, randomFor } from './support/settings.js';

const settings = chaosSettings();
const seedNote = `(CHAOS_SEED=${settings.seed})`;
const random = randomFor('security-timing-and-limits');
const counts = { timing: { operations: 0, violations: 0 }, limits: { operations: 0, violations: 0 } };
afterAll(() => {
  recordChaos('security-timing', counts.timing);
  recordChaos('security-rate-limits', counts.limits);
});
// A failed check counts as a violation of its area, unless it already counted its own.
beforeEach(({ task, onTestFailed }) => {
  const area = task.suite?.name === 'rate limits' ? counts.limits : counts.timing;
  const before = area.violations;
  onTestFailed(() => {
    if (area.violations === before) area.violations++;
  });
});

// Registrations per address: one timing round sends seven register requests from its own address.
const LIMITS = { register: 7, check: 4, default: 8, loginFailures: 3 };
let server: TestServer;
let alice: TestUser;
let nextAddress = 10;

beforeAll(async () => {
  // Cost 2^16: one scrypt hash (64 MiB) is about a hundred milliseconds, many times the rest of a
  // request (a wrong password's failure count, a new account's inserts), so that a skipped hash stands
  // out and the database work does not: at 2^15 on a loaded machine that work reached a fifth of a hash.
  server = await startTestServer({
    PASSWORD_HASH_COST_LOG2: '16',
    RATE_LIMIT_REGISTER_PER_MINUTE: String(LIMITS.register),
    RATE_LIMIT_CHECK_PER_MINUTE: String(LIMITS.check),
    RATE_LIMIT_DEFAULT_PER_MINUTE: String(LIMITS.default),
    LOGIN_MAX_FAILURES: String(LIMITS.loginFailures),
    LOG_LEVEL: 'warn',
  });
  alice = await newUser();
  await mined(server, await faucet(server, { address: alice.depositAddress, amount: 100, currency: 'USDC' }));
  await drainDeposits(server);
}, 120_000);
afterAll(() => server?.close());

interface Options {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A client on its own loopback address: its own per-address budgets. */
function client() {
  const localAddress = `127.0.0.${nextAddress++}`;
  return (method: string, path: string, options: Options = {}): Promise<TestResponse> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      const url = new URL(server.url + path);
      const request = http.request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = undefined;
            }
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
            resolve({ status: response.statusCode ?? 0, headers: responseHeaders, body: parsed, text });
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
}

/** A 429 as the contract's errors are: a problem document, Retry-After in whole seconds within the window. */
function expectLimited(answer: TestResponse, label: string, code = 'rate_limited'): void {
  counts.limits.operations++;
  try {
    expectProblem(answer, 429, code);
    const retryAfter = answer.headers.get('retry-after');
    expect(retryAfter, `${label}: Retry-After`).toMatch(/^\d+$/);
    expect(Number(retryAfter), `${label}: Retry-After`).toBeGreaterThan(0);
    expect(Number(retryAfter), `${label}: Retry-After`).toBeLessThanOrEqual(code === 'too_many_attempts' ? 15 * 60 : 60);
  } catch (error) {
    counts.limits.violations++;
    throw new Error(`${label} ${seedNote}: ${(error as Error).message}`, { cause: error });
  }
}

/** Sends `count` requests in order and returns their answers. */
async function repeat(count: number, send: (i: number) => Promise<TestResponse>): Promise<TestResponse[]> {
  const answers = [];
  for (let i = 0; i < count; i++) answers.push(await send(i));
  counts.limits.operations += count;
  return answers;
}

let userCount = 0;
/** A new account, registered from an address of its own (so that no check's budget pays for it). */
async function newUser(): Promise<TestUser> {
  const email = `sec-${settings.seed}-${++userCount}-${Math.floor(random() * 1e9)}@example.com`;
  const password = `pw-${Math.floor(random() * 1e12)}-secret`;
  // Names hold letters only: the count is spelled in letters, a for 0 to j for 9.
  const name = `User${String(userCount).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)} Test`;
  const answer = await client()('POST', '/agent/register', { body: { email, password, name } });
  if (answer.status !== 201) throw new Error(`registration: ${answer.status} ${answer.text}`);
  return {
    email,
    password,
    name,
    key: answer.body.apiKey,
    handle: answer.body.agentHandle,
    depositAddress: answer.body.depositAddress,
  };
}

const newEmail = () => `rl-${settings.seed}-${Math.floor(random() * 1e12)}@example.com`;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const unknownEmail = () => `nobody-${settings.seed}-${Math.floor(random() * 1e12)}@example.com`;
const wrongPassword = () => `wrong-${Math.floor(random() * 1e12)}`;

describe('register and sign-in timing', () => {
  it('does not tell whether an e-mail has an account: interleaved attempts differ by far less than one password hash', async () => {
    // Why this is a sound test on a noisy two-core machine:
    // - Each round sends one request of every kind, in a seeded random order, one at a time; a burst of
    //   load from elsewhere then slows all kinds alike instead of one kind's block of samples.
    // - Load from elsewhere only ever adds time to a request (the CPU taken away, queueing); it never
    //   makes the work itself cheaper. Each sample is the work plus a non-negative delay, so a low
    //   quantile of a kind's samples estimates its work with far less spread than the mean or even
    //   the median: the comparison is between lower quartiles (with the medians in the report). The
    //   lower quartile is still robust: a quarter of the rounds may be odd without moving it.
    // - The yardstick is one password hash, timed in the server's process as one more kind of the same
    //   rounds (so under the same load). A service that skips the hash for one kind differs from the
    //   others by ~1 hash (100%); one that does the same work differs by noise and by a few database
    //   statements, a small part of a hash. Bounds of 25% (equal work) and 75% (one
    //   hash done) sit far from both, so the test fails on a skipped hash and does not flake on load.
    let known: TestUser;
    const kinds = {
      // Registration of a new e-mail: creates the account (one hash).
      newAccount: () => ({ email: unknownEmail(), password: 'correct horse battery', name: 'New Person' }),
      // Registration with a known e-mail (name given): a sign-in with a wrong password (one verification).
      knownEmailWithName: () => ({ email: known.email, password: wrongPassword(), name: 'Known Person' }),
      // Sign-in (no name) with a wrong password (one verification).
      wrongPassword: () => ({ email: known.email, password: wrongPassword() }),
      // Sign-in (no name) with an e-mail that has no account: refused, and must cost one hash as well.
      unknownUser: () => ({ email: unknownEmail(), password: wrongPassword() }),
      // A name that passes the schema but not the account rules (blank), with a known or an unknown
      // e-mail: refused before the lookup and before any hash (DESIGN §15), alike for both.
      knownUserBadName: () => ({ email: known.email, password: wrongPassword(), name: '   ' }),
      unknownUserBadName: () => ({ email: unknownEmail(), password: wrongPassword(), name: '   ' }),
      // Refused before the e-mail is looked at (password too short): no hash at all; the baseline.
      noHash: () => ({ email: unknownEmail(), password: 'short' }),
    } as const;
    type Kind = keyof typeof kinds | 'hashOnly';
    const names = Object.keys(kinds) as Kind[];
    const rounds = byProfile({ short: 9, full: 31 });
    const times: Record<Kind, number[]> = Object.fromEntries([...names, 'hashOnly'].map((k) => [k, []])) as never;
    const statuses: Record<Kind, Set<number>> = Object.fromEntries(names.map((k) => [k, new Set()])) as never;
    for (let round = 0; round < rounds + 1; round++) {
      // A fresh account (at most two wrong passwords each, under the lock) and a fresh address (seven
      // requests, within the registration limit) per round.
      known = await newUser();
      const from = client();
      const order = [...names, 'hashOnly' as const].sort(() => random() - 0.5);
      for (const kind of order) {
        if (kind === 'hashOnly') {
          // The yardstick: one hash, timed in the server's own process, under the same load.
          const started = performance.now();
          await server.deps.passwords.hash(wrongPassword());
          if (round > 0) times.hashOnly.push(performance.now() - started);
          continue;
        }
        const body = kinds[kind]();
        const started = performance.now();
        const answer = await from('POST', '/agent/register', { body });
        const elapsed = performance.now() - started;
        counts.timing.operations++;
        // Round 0 warms the code paths (JIT, pool connections) and is not counted.
        if (round === 0) continue;
        times[kind].push(elapsed);
        statuses[kind].add(answer.status);
      }
    }
    const lowerQuartile = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 4)]!;
    const difference = (x: Kind, y: Kind) => lowerQuartile(times[x]) - lowerQuartile(times[y]);
    const hash = lowerQuartile(times.hashOnly);
    const medians = Object.fromEntries(names.map((k) => [k, Math.round(median(times[k]) * 10) / 10]));
    const quartiles = Object.fromEntries(names.map((k) => [k, Math.round(lowerQuartile(times[k]) * 10) / 10]));
    const report = `lower quartiles (ms) ${JSON.stringify(quartiles)}, medians ${JSON.stringify(medians)}, one hash ≈ ${hash.toFixed(1)} ms over ${rounds} rounds ${seedNote}`;
    console.log(`register timing: ${report}`);
    expect([...statuses.newAccount], report).toEqual([201]);
    expect([...statuses.wrongPassword], report).toEqual([401]);
    expect([...statuses.noHash], report).toEqual([400]);
    expect([...statuses.knownUserBadName], report).toEqual([400]);
    expect([...statuses.unknownUserBadName], report).toEqual([400]);
    expect(hash, `one hash must cost more than a whole request without one, or this test means nothing: ${report}`).toBeGreaterThan(
      median(times.noHash),
    );
    const failures: string[] = [];
    // Every kind that reaches the e-mail lookup spends one hash: its median paired difference to the
    // baseline is at least 75% of a hash. This is the whole check for a registration of a new e-mail
    // against one of a known e-mail: the new account also costs its inserts (a few milliseconds, more
    // on a loaded PostgreSQL), and the answers (201 and 401) differ as the contract says anyway.
    const refusedBeforeLookup: Kind[] = ['noHash', 'knownUserBadName', 'unknownUserBadName'];
    for (const kind of names.filter((k) => !refusedBeforeLookup.includes(k))) {
      const work = difference(kind, 'noHash');
      if (work < 0.75 * hash)
        failures.push(`${kind}: ${work.toFixed(1)} ms more than a refusal before the lookup, less than 75% of a hash`);
    }
    // Sign-ins that differ only in whether the e-mail has an account, and are refused either way:
    // the same work within 25% of a hash.
    for (const [x, y] of [
      ['wrongPassword', 'unknownUser'],
      ['knownUserBadName', 'unknownUserBadName'],
      ['noHash', 'unknownUserBadName'],
    ] as [Kind, Kind][]) {
      const apart = difference(x, y);
      if (Math.abs(apart) > 0.25 * hash) failures.push(`${x} vs ${y}: ${apart.toFixed(1)} ms apart, more than 25% of a hash`);
    }
    counts.timing.violations += failures.length;
    expect(failures, report).toEqual([]);
  }, 240_000);
});

describe('answers that must not tell accounts apart', () => {
  /** The answer without what is unique to the request (its id and instance). */
  const comparable = (answer: TestResponse) => {
    const { instance: _i, requestId: _r, ...body } = (answer.body ?? {}) as Record<string, unknown>;
    return JSON.stringify({
      status: answer.status,
      type: answer.headers.get('content-type'),
      authenticate: answer.headers.get('www-authenticate'),
      body,
    });
  };
  const alike = (label: string, answers: TestResponse[]) => {
    counts.timing.operations += answers.length;
    const shapes = new Set(answers.map(comparable));
    if (shapes.size !== 1) counts.timing.violations++;
    expect([...shapes], `${label} differ ${seedNote}`).toHaveLength(1);
  };

  it('a wrong password is answered alike for every account, on both registration paths', async () => {
    const users = [await newUser(), await newUser(), await newUser()];
    for (const path of ['/agent/register', '/stablecoin/register']) {
      const from = client();
      const answers = [];
      for (const user of users) answers.push(await from('POST', path, { body: { email: user.email, password: wrongPassword() } }));
      expect(answers[0]!.status, seedNote).toBe(401);
      alike(`${path}: wrong-password answers for different accounts`, answers);
    }
  });

  it('a missing account is answered alike whatever was asked for, on every lookup', async () => {
    const missing = [
      `email=${encodeURIComponent(unknownEmail())}`,
      `email=${encodeURIComponent(unknownEmail())}`,
      'handle=PA-ZZZZZZZZ',
      'handle=PA-23456789',
    ];
    for (const path of ['/agents/lookup', '/stablecoin/lookup']) {
      const from = client();
      const answers = await Promise.all(missing.map((q) => from('GET', `${path}?${q}`, { key: alice.key })));
      expect(answers[0]!.status, seedNote).toBe(404);
      alike(`${path}: not-found answers`, answers);
    }
    const from = client();
    const checks = await Promise.all(missing.map((q) => from('GET', `/agents/check?${q}`)));
    expect(checks[0]!.body, seedNote).toMatchObject({ exists: false });
    alike('/agents/check: not-found answers', checks);
  });

  it('an invalid key is answered alike whether it is unknown, revoked or malformed', async () => {
    const revoked = (await newUser()).key;
    const from = client();
    expect((await from('POST', '/account/revoke-key', { key: revoked })).status, seedNote).toBe(200);
    const badKeys = [revoked, `pa_live_${'A'.repeat(49)}`, revoked.slice(0, -1) + (revoked.endsWith('a') ? 'b' : 'a'), 'not-a-key'];
    const answers = await Promise.all(badKeys.map((key) => from('GET', '/stablecoin/balance', { key })));
    expect(answers[0]!.status, seedNote).toBe(401);
    alike('401 answers to unknown, revoked and malformed keys', answers);
  });
});

describe('rate limits', () => {
  it('registrations: one budget per address across /agent/register and /stablecoin/register, sign-ins included', async () => {
    const from = client();
    const paths = ['/agent/register', '/stablecoin/register'];
    const answers = await repeat(LIMITS.register + 2, (i) =>
      from('POST', paths[i % 2]!, { body: { email: newEmail(), password: 'correct horse battery', name: 'R' } }),
    );
    expect(
      answers.slice(0, LIMITS.register).map((a) => a.status),
      seedNote,
    ).toEqual(Array(LIMITS.register).fill(201));
    for (const [i, answer] of answers.slice(LIMITS.register).entries())
      expectLimited(answer, `registration ${LIMITS.register + i + 1} on ${paths[(LIMITS.register + i) % 2]}`);
    // A sign-in is a registration request: it is limited too, and a forged X-Forwarded-For does not reset the count.
    expectLimited(
      await from('POST', '/agent/register', { body: { email: alice.email, password: alice.password } }),
      'sign-in after the limit',
    );
    expectLimited(
      await from('POST', '/stablecoin/register', {
        body: { email: newEmail(), password: 'correct horse battery', name: 'R' },
        headers: { 'x-forwarded-for': '203.0.113.7' },
      }),
      'registration with X-Forwarded-For',
    );
    // Another address is not affected.
    expect((await client()('POST', '/agent/register', { body: { email: alice.email, password: alice.password } })).status, seedNote).toBe(
      200,
    );
  });

  it('account checks and lookups: one budget per address across /agents/check, /agents/lookup and /stablecoin/lookup', async () => {
    const from = client();
    const paths = ['/agents/check', '/agents/lookup', '/stablecoin/lookup'];
    const answers = await repeat(LIMITS.check + 3, (i) => from('GET', `${paths[i % 3]}?handle=${alice.handle}`, { key: alice.key }));
    expect(
      answers.slice(0, LIMITS.check).map((a) => a.status),
      seedNote,
    ).toEqual(Array(LIMITS.check).fill(200));
    for (const [i, answer] of answers.slice(LIMITS.check).entries())
      expectLimited(answer, `check ${LIMITS.check + i + 1} on ${paths[(LIMITS.check + i) % 3]}`);
    expectLimited(await from('GET', `/agents/check?email=${encodeURIComponent(newEmail())}`), 'check without a key after the limit');
  });

  it('wrong passwords: the account locks with 429 too_many_attempts and Retry-After, and the right password does not get a key meanwhile', async () => {
    const victim = await newUser();
    const answers: TestResponse[] = [];
    // From several addresses: the lock is on the account, not on the address.
    for (let i = 0; i < LIMITS.loginFailures + 1; i++)
      answers.push(await client()('POST', '/agent/register', { body: { email: victim.email, password: `wrong-${i}-password` } }));
    counts.limits.operations += answers.length;
    expect(
      answers.slice(0, LIMITS.loginFailures).map((a) => a.status),
      seedNote,
    ).toEqual(Array(LIMITS.loginFailures).fill(401));
    expectLimited(answers[LIMITS.loginFailures]!, 'wrong password after the lock', 'too_many_attempts');
    const right = await client()('POST', '/agent/register', { body: { email: victim.email, password: victim.password } });
    expectLimited(right, 'right password while locked', 'too_many_attempts');
    expect(right.text, seedNote).not.toContain('pa_live_');
    // The account's existing key still works: the lock is on signing in only.
    expect((await client()('GET', '/account', { key: victim.key })).status, seedNote).toBe(200);
  });

  it('the default limit: per account, across all its keys, on every route, malformed requests included, and a 429 moves no money', async () => {
    const recipient = await newUser();
    const key = (await client()('POST', '/agent/register', { body: { email: alice.email, password: alice.password } })).body
      .apiKey as string;
    const from = client();
    const routes: [string, string, Options][] = [
      ['GET', '/balance', {}],
      ['GET', '/stablecoin/balance', {}],
      ['GET', '/transfers', {}],
      ['GET', '/account', {}],
    ];
    const balance = (await from('GET', '/stablecoin/balance', { key })).body;
    // Alice's two keys share one budget (DESIGN §15): a second key is no second budget.
    const answers = await repeat(LIMITS.default - 1, (i) => {
      const [method, path, options] = routes[i % routes.length]!;
      return from(method, path, { ...options, key: i % 2 ? key : alice.key });
    });
    expect(
      answers.map((a) => a.status),
      seedNote,
    ).toEqual(Array(LIMITS.default - 1).fill(200));
    expectLimited(
      await from('POST', '/agent/transfer', { key, body: { to: recipient.handle, amount: 1, currency: 'USDC' } }),
      'transfer after the limit',
    );
    expectLimited(
      await from('POST', '/agent/transfer', { key, rawBody: '{"to": ', headers: { 'content-type': 'application/json' } }),
      'malformed JSON after the limit',
    );
    expectLimited(await from('POST', '/stablecoin/withdraw', { key, body: { amount: 'lots' } }), 'an invalid body after the limit');
    expectLimited(await from('GET', '/transfers?limit=-1', { key }), 'an invalid query after the limit');
    expectLimited(
      await client()('POST', '/agent/transfer', { key: alice.key, body: { to: recipient.handle, amount: 1, currency: 'USDC' } }),
      'the other key, from another address, after the limit',
    );
    // The recipient's account has its own budget, and nothing reached it.
    const received = await client()('GET', '/stablecoin/balance', { key: recipient.key });
    expect(received.body, `a refused transfer moved money ${seedNote}`).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect(balance.USDC, seedNote).not.toBe('0.000000');
  });

  it('the default limit: requests without a key, or with keys that are not valid, count against the address', async () => {
    const owner = await newUser();
    const from = client();
    const wellFormed = () => issueApiKey().key;
    const answers = await repeat(LIMITS.default, (i) => from('GET', '/balance', { key: i % 2 ? wellFormed() : `pa_live_guess${i}` }));
    expect(
      answers.map((a) => a.status),
      seedNote,
    ).toEqual(Array(LIMITS.default).fill(401));
    expectLimited(await from('GET', '/balance', { key: wellFormed() }), 'a guessed key after the limit');
    expectLimited(await from('GET', '/health'), 'a public route from the same address');
    expectLimited(
      await from('GET', '/balance', { key: wellFormed(), headers: { 'x-forwarded-for': '198.51.100.9' } }),
      'a guessed key with X-Forwarded-For',
    );
    // A valid key's account has its own budget: the guesses from this address do not lock out its owner.
    expect((await from('GET', '/balance', { key: owner.key })).status, seedNote).toBe(200);
  });
});
