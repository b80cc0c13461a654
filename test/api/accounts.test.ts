import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOGIN_MAX_FAILURES: '3' });
});
afterAll(async () => {
  await server?.close();
});

const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe('POST /agent/register', () => {
  it('creates an account with a key, a handle and a stablecoin wallet (201)', async () => {
    const email = uniqueEmail('new');
    const response = await server.request('POST', '/agent/register', { body: { email, password: 'password123', name: 'Ada Lovelace' } });
    expect(response.status).toBe(201);
    expect(response.body.isNewAccount).toBe(true);
    expect(response.body.apiKey).toMatch(/^pa_live_[0-9A-Za-z]{49}$/);
    expect(response.body.agentHandle).toMatch(/^PA-[A-Z0-9]{8}$/);
    expect(response.body.stablecoinWalletId).toMatch(/^wal_/);
    expect(response.body.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const me = await server.request('GET', '/account', { key: response.body.apiKey });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email,
      name: 'Ada Lovelace',
      agentHandle: response.body.agentHandle,
      depositAddress: response.body.depositAddress,
    });
  });

  it('gives every account its own deposit address', async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    expect(a.depositAddress).not.toBe(b.depositAddress);
    expect(a.handle).not.toBe(b.handle);
  });

  it('issues one more independent key to an existing account with the right password (200)', async () => {
    const user = await registerUser(server);
    const again = await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } });
    expect(again.status).toBe(200);
    expect(again.body.isNewAccount).toBe(false);
    expect(again.body.agentHandle).toBe(user.handle);
    expect(again.body.apiKey).not.toBe(user.key);
    expect((await server.request('GET', '/account', { key: user.key })).status).toBe(200);
    expect((await server.request('GET', '/account', { key: again.body.apiKey })).status).toBe(200);
  });

  it('treats the e-mail case-insensitively', async () => {
    const user = await registerUser(server);
    const again = await server.request('POST', '/agent/register', { body: { email: user.email.toUpperCase(), password: user.password } });
    expect(again.status).toBe(200);
    expect(again.body.agentHandle).toBe(user.handle);
  });

  it('refuses a wrong password with 401', async () => {
    const user = await registerUser(server);
    expectProblem(
      await server.request('POST', '/agent/register', { body: { email: user.email, password: 'not the password' } }),
      401,
      'invalid_credentials',
    );
  });

  it.each([
    ['a malformed e-mail', { email: 'not-an-email', password: 'password123', name: 'X' }],
    ['a look-alike e-mail', { email: 'bob\u200b@example.com', password: 'password123', name: 'X' }],
    ['a password under 8 characters', { email: uniqueEmail('short'), password: 'short', name: 'X' }],
    ['no name for a new account', { email: uniqueEmail('noname'), password: 'password123' }],
    ['no e-mail', { password: 'password123', name: 'X' }],
    ['no password', { email: uniqueEmail('nopw'), name: 'X' }],
    ['an e-mail of the wrong type', { email: 42, password: 'password123', name: 'X' }],
    ['an unknown field', { email: uniqueEmail('extra'), password: 'password123', name: 'X', admin: true }],
    ['a blank name', { email: uniqueEmail('blank'), password: 'password123', name: '   ' }],
    ['an array body', [1, 2]],
  ])('refuses %s with 400 and creates nothing', async (_label, body) => {
    const response = await server.request('POST', '/agent/register', { body });
    expectProblem(response, 400);
    const email = (body as { email?: unknown }).email;
    if (typeof email === 'string') {
      // A malformed e-mail cannot even be looked up (400 invalid_email); any other is not there.
      const check = await server.request('GET', `/agents/check?email=${encodeURIComponent(email)}`);
      if (check.status === 400) expect(check.body.code).toBe('invalid_email');
      else expect(check.body.exists).toBe(false);
    }
  });

  it('refuses malformed JSON, a wrong content type and an oversized body', async () => {
    expectProblem(
      await server.request('POST', '/agent/register', { rawBody: '{"email": ', headers: { 'content-type': 'application/json' } }),
      400,
      'malformed_json',
    );
    expectProblem(
      await server.request('POST', '/agent/register', { rawBody: 'email=a', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    const huge = JSON.stringify({ email: uniqueEmail('huge'), password: 'password123', name: 'x'.repeat(200_000) });
    expectProblem(
      await server.request('POST', '/agent/register', { rawBody: huge, headers: { 'content-type': 'application/json' } }),
      413,
      'body_too_large',
    );
  });

  it('locks an account after repeated wrong passwords, then lets it in after the window', async () => {
    const user = await registerUser(server);
    for (let i = 0; i < 3; i++) {
      expectProblem(
        await server.request('POST', '/agent/register', { body: { email: user.email, password: 'wrong password' } }),
        401,
        'invalid_credentials',
      );
    }
    const locked = await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } });
    expectProblem(locked, 429, 'too_many_attempts');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    await server.deps.sandboxClock!.advance(16n * 60n * 1000n);
    const after = await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } });
    expect(after.status).toBe(200);
  });
});

describe('POST /stablecoin/register', () => {
  it('answers with the stablecoin description of the same registration', async () => {
    const email = uniqueEmail('sc');
    const created = await server.request('POST', '/stablecoin/register', {
      body: { email, password: 'password123', name: 'Grace Hopper' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, isNewAccount: true });
    expect(created.body.handle).toMatch(/^PA-[A-Z0-9]{8}$/);
    expect(created.body.apiKey).toMatch(/^pa_live_/);
    expect(created.body.stablecoinWalletId).toMatch(/^wal_/);
    const again = await server.request('POST', '/stablecoin/register', { body: { email, password: 'password123' } });
    expect(again.status).toBe(200);
    expect(again.body.handle).toBe(created.body.handle);
    expect(again.body.stablecoinWalletId).toBe(created.body.stablecoinWalletId);
  });
});

describe('GET /agents/check', () => {
  it('answers both shapes merged, by e-mail (with email) and by handle (without)', async () => {
    const user = await registerUser(server, { name: 'Linus Torvalds' });
    const byEmail = await server.request('GET', `/agents/check?email=${encodeURIComponent(user.email)}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual({
      exists: true,
      found: true,
      firstName: 'Linus',
      agentHandle: user.handle,
      handle: user.handle,
      email: user.email,
    });
    const byHandle = await server.request('GET', `/agents/check?handle=${user.handle}`);
    expect(byHandle.body).toEqual({ exists: true, found: true, firstName: 'Linus', agentHandle: user.handle, handle: user.handle });
  });

  it('answers 200 {exists: false, found: false} for nobody, with or without a key', async () => {
    const user = await registerUser(server);
    for (const key of [undefined, user.key]) {
      const response = await server.request('GET', `/agents/check?email=${encodeURIComponent(uniqueEmail('nobody'))}`, { key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ exists: false, found: false });
    }
    expect((await server.request('GET', '/agents/check?handle=PA-ZZZZZZZZ')).body).toEqual({ exists: false, found: false });
  });

  it('refuses a bad key, no query, or both parameters', async () => {
    expectProblem(await server.request('GET', '/agents/check?handle=PA-ZZZZZZZZ', { key: 'pa_live_nope' }), 401, 'unauthorized');
    expectProblem(await server.request('GET', '/agents/check'), 400);
    expectProblem(await server.request('GET', '/agents/check?email=a@b.co&handle=PA-ZZZZZZZZ'), 400);
    expectProblem(await server.request('GET', '/agents/check?email=a@b.co&admin=1'), 400);
  });
});

describe('recipient lookups', () => {
  it.each(['/agents/lookup', '/stablecoin/lookup'])('%s finds by e-mail or handle, 404 otherwise, and needs a key', async (path) => {
    const caller = await registerUser(server);
    const target = await registerUser(server, { name: 'Margaret Hamilton' });
    const expected = { found: true, handle: target.handle, agentHandle: target.handle, firstName: 'Margaret' };
    expect((await server.request('GET', `${path}?email=${encodeURIComponent(target.email)}`, { key: caller.key })).body).toEqual(expected);
    expect((await server.request('GET', `${path}?handle=${target.handle}`, { key: caller.key })).body).toEqual(expected);
    expectProblem(
      await server.request('GET', `${path}?email=${encodeURIComponent(uniqueEmail('none'))}`, { key: caller.key }),
      404,
      'recipient_not_found',
    );
    expectProblem(await server.request('GET', `${path}?handle=${target.handle}`), 401, 'unauthorized');
  });
});

describe('POST /account/revoke-key', () => {
  it('revokes the key used for the call only; registering again gives a working key', async () => {
    const user = await registerUser(server);
    const second = (await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } })).body.apiKey;
    expect((await server.request('POST', '/account/revoke-key', { key: user.key })).status).toBe(200);
    expectProblem(await server.request('GET', '/account', { key: user.key }), 401, 'unauthorized');
    expectProblem(await server.request('POST', '/account/revoke-key', { key: user.key }), 401, 'unauthorized');
    expect((await server.request('GET', '/account', { key: second })).status).toBe(200);
    const fresh = await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } });
    expect(fresh.status).toBe(200);
    expect((await server.request('GET', '/account', { key: fresh.body.apiKey })).status).toBe(200);
  });

  it('refuses malformed, mistyped and missing keys with 401', async () => {
    const user = await registerUser(server);
    const flipped = user.key.slice(0, -1) + (user.key.endsWith('A') ? 'B' : 'A');
    for (const authorization of [`Bearer ${flipped}`, 'Bearer pa_live_short', 'Basic abc', `Bearer ${user.key} extra`, '']) {
      const response = await server.request('POST', '/account/revoke-key', { headers: { authorization } });
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await server.request('GET', '/account', { key: user.key })).status).toBe(200);
  });
});

describe('PATCH /account', () => {
  it('updates name, phone, website and directory listing', async () => {
    const user = await registerUser(server);
    const phone = `+1415${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    const response = await server.request('PATCH', '/account', {
      key: user.key,
      body: { name: 'Katherine Johnson', phone, website: 'https://example.org/kj', discoverable: true },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Katherine Johnson', phone, website: 'https://example.org/kj', discoverable: true });
    const cleared = await server.request('PATCH', '/account', { key: user.key, body: { phone: null } });
    expect(cleared.body.phone).toBeNull();
  });

  it('refuses invalid values, an empty patch, and a phone another account holds', async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    const phone = `+4420${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
    expect((await server.request('PATCH', '/account', { key: a.key, body: { phone } })).status).toBe(200);
    expectProblem(await server.request('PATCH', '/account', { key: b.key, body: { phone } }), 409, 'already_exists');
    expectProblem(await server.request('PATCH', '/account', { key: b.key, body: { phone: '555-1234' } }), 400);
    expectProblem(await server.request('PATCH', '/account', { key: b.key, body: { website: 'javascript:alert(1)' } }), 400);
    expectProblem(await server.request('PATCH', '/account', { key: b.key, body: { discoverable: 'yes' } }), 400);
    expectProblem(await server.request('PATCH', '/account', { key: b.key, body: {} }), 400);
    expectProblem(await server.request('PATCH', '/account', { key: b.key, body: { email: 'new@example.com' } }), 400);
    expect((await server.request('GET', '/account', { key: b.key })).body.phone).toBeNull();
  });
});

describe('POST /stablecoin/wallet', () => {
  it('returns the wallet created at registration', async () => {
    const registered = await server.request('POST', '/agent/register', {
      body: { email: uniqueEmail('wallet'), password: 'password123', name: 'W' },
    });
    const wallet = await server.request('POST', '/stablecoin/wallet', { key: registered.body.apiKey });
    expect(wallet.status).toBe(200);
    expect(wallet.body).toEqual({
      walletId: registered.body.stablecoinWalletId,
      existing: true,
      depositAddress: registered.body.depositAddress,
    });
  });
});

describe('secrets in logs', () => {
  it('never writes a key or a password to the log', async () => {
    const password = 'log-canary-password-42';
    const registered = await server.request('POST', '/agent/register', { body: { email: uniqueEmail('logs'), password, name: 'L' } });
    const read = await server.request('GET', '/account', { key: registered.body.apiKey });
    await server.request('POST', '/agent/register', { body: { email: uniqueEmail('logs2'), password }, headers: {} });
    const all = server.logs.join('');
    // Each request is logged once, when answered: its method, path and status.
    const lines = all
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, any>);
    const accountRead = lines.filter((l) => l.reqId === read.headers.get('x-request-id'));
    expect(accountRead).toHaveLength(1);
    expect(accountRead[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/account' }, res: { statusCode: 200 } });
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
    expect(all).not.toContain(password);
    expect(all).not.toContain(registered.body.apiKey);
  });
});
