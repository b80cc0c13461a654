// Keys and passwords (DESIGN §15): POST /account/password changes the password (the current one is
// checked under the sign-in lock-out); API keys keep working unless the caller asks to revoke the
// others, as Stripe and GitHub do. POST /account/revoke-all-keys revokes every key of the account,
// the calling one included. Rate limits of authenticated routes are per account, not per key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOGIN_MAX_FAILURES: '3' });
});
afterAll(async () => {
  await server?.close();
});

const signIn = (user: TestUser, password: string) => server.request('POST', '/agent/register', { body: { email: user.email, password } });
const newKey = async (user: TestUser, password = user.password) => {
  const response = await signIn(user, password);
  expect(response.status).toBe(200);
  return response.body.apiKey as string;
};
const works = async (key: string) => (await server.request('GET', '/account', { key })).status === 200;
const changePassword = (key: string, body: unknown) => server.request('POST', '/account/password', { key, body });

describe('POST /account/password', () => {
  it('changes the password; every key keeps working; the old password no longer signs in', async () => {
    const user = await registerUser(server);
    const second = await newKey(user);
    const response = await changePassword(user.key, { currentPassword: user.password, newPassword: 'a brand new password' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ changed: true, revokedKeys: 0 });
    expect(await works(user.key)).toBe(true);
    expect(await works(second)).toBe(true);
    expectProblem(await signIn(user, user.password), 401, 'invalid_credentials');
    expect((await signIn(user, 'a brand new password')).status).toBe(200);
  });

  it('revokes the other keys, never the calling one, when asked', async () => {
    const user = await registerUser(server);
    const second = await newKey(user);
    const third = await newKey(user);
    const response = await changePassword(user.key, {
      currentPassword: user.password,
      newPassword: 'another new password',
      revokeOtherKeys: true,
    });
    expect(response.body).toEqual({ changed: true, revokedKeys: 2 });
    expect(await works(user.key)).toBe(true);
    expect(await works(second)).toBe(false);
    expect(await works(third)).toBe(false);
  });

  it('refuses a wrong current password (401), counts it under the lock-out (429), and changes nothing', async () => {
    const user = await registerUser(server);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        changePassword(user.key, { currentPassword: `wrong password ${i}`, newPassword: 'never saved password' }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 401 || s === 429)).toHaveLength(6);
    expectProblem(
      answers.find((a) => a.status === 401)!,
      401,
      'invalid_credentials',
    );
    expectProblem(
      answers.find((a) => a.status === 429)!,
      429,
      'too_many_attempts',
    );
    await server.deps.sandboxClock!.advance(16n * 60n * 1000n);
    expect((await signIn(user, 'never saved password')).status).toBe(401);
    expect((await signIn(user, user.password)).status).toBe(200);
  });

  it.each([
    ['a new password under 8 characters', { currentPassword: 'correct horse battery', newPassword: 'short' }],
    ['no current password', { newPassword: 'long enough password' }],
    ['an unknown field', { currentPassword: 'correct horse battery', newPassword: 'long enough password', email: 'x@example.com' }],
  ])('refuses %s with 400', async (_label, body) => {
    const user = await registerUser(server);
    expectProblem(await changePassword(user.key, body), 400);
    expect((await signIn(user, user.password)).status).toBe(200);
  });

  it('needs a key', async () => {
    expectProblem(
      await server.request('POST', '/account/password', { body: { currentPassword: 'x'.repeat(8), newPassword: 'y'.repeat(8) } }),
      401,
      'unauthorized',
    );
  });
});

describe('POST /account/revoke-all-keys', () => {
  it('revokes every key of the account, the calling one included, and says how many', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const keys = [user.key, await newKey(user), await newKey(user)];
    const response = await server.request('POST', '/account/revoke-all-keys', { key: keys[1] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ revoked: 3 });
    for (const key of keys) expect(await works(key)).toBe(false);
    expect(await works(other.key)).toBe(true);
    // Signing in again gives a working key; the account and its funds are unaffected.
    expect(await works(await newKey(user))).toBe(true);
  });

  it('needs a valid key', async () => {
    expectProblem(await server.request('POST', '/account/revoke-all-keys'), 401, 'unauthorized');
  });
});

describe('the OpenAPI document', () => {
  it('documents both operations with tags and a summary', async () => {
    const spec = (await server.request('GET', '/openapi.json')).body;
    for (const path of ['/account/password', '/account/revoke-all-keys']) {
      expect(spec.paths[path]?.post?.tags).toEqual(['account']);
      expect(spec.paths[path]?.post?.summary).toBeTruthy();
    }
  });
});

describe('rate limits of authenticated routes', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_DEFAULT_PER_MINUTE: '6' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('are per account: a second key of the same account shares the budget; another account has its own', async () => {
    const user = await registerUser(limited);
    const stranger = await registerUser(limited);
    const again = await limited.request('POST', '/agent/register', { body: { email: user.email, password: user.password } });
    const second = again.body.apiKey as string;
    for (let i = 0; i < 6; i++) expect((await limited.request('GET', '/account', { key: i % 2 ? second : user.key })).status).toBe(200);
    expectProblem(await limited.request('GET', '/account', { key: second }), 429, 'rate_limited');
    expectProblem(await limited.request('GET', '/account', { key: user.key }), 429, 'rate_limited');
    expect((await limited.request('GET', '/account', { key: stranger.key })).status).toBe(200);
  });
});
