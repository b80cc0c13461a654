// Abuse of the password paths (DESIGN §15): parallel guesses for one account are counted before any
// hash is checked, so that no more than LOGIN_MAX_FAILURES of them are ever checked; and a flood of
// requests that need a hash cannot make a real registration wait: the hashing queue is bounded and
// beyond it peerpay answers 503 busy with Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';

const MAX_FAILURES = 10;

describe('parallel password guessing', () => {
  let server: TestServer;
  let verified = 0;
  beforeAll(async () => {
    server = await startTestServer({ LOGIN_MAX_FAILURES: String(MAX_FAILURES), RATE_LIMIT_REGISTER_PER_MINUTE: '1000' });
    const passwords = server.deps.passwords;
    const verify = passwords.verify.bind(passwords);
    passwords.verify = async (password, stored) => {
      verified++;
      return verify(password, stored);
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('checks at most LOGIN_MAX_FAILURES of 40 parallel wrong passwords; the rest are 429 too_many_attempts', async () => {
    const victim = await registerUser(server);
    verified = 0;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        server.request('POST', '/agent/register', { body: { email: victim.email, password: `wrong password ${i}` } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(verified).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expectProblem(answer, 429, 'too_many_attempts');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Locked: the right password gets no key either, and is not checked.
    verified = 0;
    expectProblem(
      await server.request('POST', '/agent/register', { body: { email: victim.email, password: victim.password } }),
      429,
      'too_many_attempts',
    );
    expect(verified).toBe(0);
    // The lock ends with its window.
    await server.deps.sandboxClock!.advance(16n * 60n * 1000n);
    expect((await server.request('POST', '/agent/register', { body: { email: victim.email, password: victim.password } })).status).toBe(
      200,
    );
  });

  it('a correct password still resets the count', async () => {
    const user = await registerUser(server);
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expectProblem(
        await server.request('POST', '/agent/register', { body: { email: user.email, password: `wrong password ${i}` } }),
        401,
        'invalid_credentials',
      );
    }
    expect((await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } })).status).toBe(200);
    const again = await Promise.all(
      Array.from({ length: MAX_FAILURES - 1 }, (_, i) =>
        server.request('POST', '/agent/register', { body: { email: user.email, password: `wrong again ${i}` } }),
      ),
    );
    expect(again.map((a) => a.status)).toEqual(Array(MAX_FAILURES - 1).fill(401));
    expect((await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } })).status).toBe(200);
  });
});

describe('a flood of requests that need a hash', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      PASSWORD_HASH_COST_LOG2: '15',
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE_MAX: '4',
      RATE_LIMIT_REGISTER_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    '60 parallel sign-ins of unknown e-mails: beyond the queue 503 busy with Retry-After, and a real registration is answered at once',
    { timeout: 120_000 },
    async () => {
      const flood = Array.from({ length: 60 }, (_, i) =>
        server.request('POST', '/agent/register', { body: { email: `flood-${i}-${Date.now()}@example.com`, password: 'password123' } }),
      );
      const started = performance.now();
      const real = await server.request('POST', '/agent/register', {
        body: { email: `real-${Date.now()}@example.com`, password: 'password123', name: 'Real Person' },
      });
      const realMs = performance.now() - started;
      const answers = await Promise.all(flood);
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      for (const answer of busy) {
        expectProblem(answer, 503, 'busy');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Those that got a hash are refused as a sign-in of an unknown e-mail is (400: no name to create an account).
      expect(answers.filter((a) => a.status !== 503).every((a) => a.status === 400)).toBe(true);
      // The real registration either made it through the short queue or was told at once to retry.
      expect([201, 503]).toContain(real.status);
      // At most queue + running hashes ahead of it: far from the 60 hashes the flood would cost.
      const oneHashMs = await timeOneHash(server);
      expect(realMs).toBeLessThan(oneHashMs * 20 + 2000);
      // Once the flood is over, registering works.
      const after = await server.request('POST', '/agent/register', {
        body: { email: `after-${Date.now()}@example.com`, password: 'password123', name: 'After' },
      });
      expect(after.status).toBe(201);
    },
  );

  it('refuses bad input before any hashing: a blank or invalid name, a bad phone', async () => {
    let hashes = 0;
    const passwords = server.deps.passwords;
    const original = { hash: passwords.hash, verify: passwords.verify, burn: passwords.burn };
    passwords.hash = async (p) => (hashes++, original.hash.call(passwords, p));
    passwords.verify = async (p, s) => (hashes++, original.verify.call(passwords, p, s));
    passwords.burn = async (p) => (hashes++, original.burn.call(passwords, p));
    try {
      const known = await registerUser(server);
      hashes = 0;
      for (const body of [
        { email: `blank-${Date.now()}@example.com`, password: 'password123', name: '   ' },
        { email: known.email, password: 'password123', name: '   ' },
        { email: `phone-${Date.now()}@example.com`, password: 'password123', name: 'Phone', phone: 'not a phone' },
        { email: 'not-an-email', password: 'password123', name: 'X' },
        { email: `short-${Date.now()}@example.com`, password: 'short', name: 'X' },
      ]) {
        expectProblem(await server.request('POST', '/agent/register', { body }), 400);
      }
      expect(hashes).toBe(0);
    } finally {
      Object.assign(passwords, original);
    }
  });
});

async function timeOneHash(server: TestServer): Promise<number> {
  const started = performance.now();
  await server.deps.passwords.hash('timing only');
  return performance.now() - started;
}
