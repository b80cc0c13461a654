// Setup links (DESIGN §7, §9): their lifetimes, the sandbox pages peerpay serves, single use,
// expiry against the sandbox clock, outcomes, and that tokens never reach a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { sha256Hex } from '../../src/platform/ids.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, linkPath, moneySnapshot, newLink, send, submitLink } from '../helpers/fiat.js';

let server: TestServer;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = await registerUser(server);
  other = await registerUser(server);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function processorRefs(u: TestUser) {
  const account = await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', u.handle).executeTakeFirstOrThrow();
  return server.deps.db.selectFrom('processor_customers').selectAll().where('account_id', '=', account.id).executeTakeFirst();
}

async function getPage(url: string) {
  const response = await fetch(server.url + linkPath(url));
  return { status: response.status, text: await response.text(), headers: response.headers };
}

describe('link endpoints', () => {
  it.each([
    ['/agent/setup-link', 'card-setup', '24 hours', 24 * 3600],
    ['/agent/bank-debit-link', 'bank-debit-setup', '24 hours', 24 * 3600],
    ['/agent/connect-link', 'payout-setup', '10 minutes', 600],
  ] as const)('%s hands out a private %s link valid for %s', async (endpoint, purpose, expiresIn, seconds) => {
    const before = Date.parse((await server.request('GET', '/health')).body.time);
    const response = await server.request('POST', endpoint, { key: user.key });
    expect(response.status).toBe(200);
    expect(response.body.expiresIn).toBe(expiresIn);
    expect(response.body.url).toMatch(new RegExp(`/links/${purpose}/[0-9A-Za-z]{43}$`));
    const lifetime = Date.parse(response.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThanOrEqual(seconds * 1000);
    expect(lifetime).toBeLessThan(seconds * 1000 + 60_000);
    // Only the token's hash is stored.
    const token = response.body.url.split('/').pop();
    const stored = await server.deps.db.selectFrom('links').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
    expect(stored?.purpose).toBe(purpose);
    const everything = JSON.stringify(await server.deps.db.selectFrom('links').selectAll().execute());
    expect(everything).not.toContain(token);
  });

  it('gives a new token every time', async () => {
    const a = await newLink(server, user, '/agent/setup-link');
    const b = await newLink(server, user, '/agent/setup-link');
    expect(a.url).not.toBe(b.url);
  });

  it('accepts no body, an empty body with a JSON content type, or {}; refuses any field', async () => {
    expect(
      (await server.request('POST', '/agent/setup-link', { key: user.key, rawBody: '', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(200);
    expect((await server.request('POST', '/agent/setup-link', { key: user.key, body: {} })).status).toBe(200);
    const problem = expectProblem(
      await server.request('POST', '/agent/bank-debit-link', { key: user.key, body: { outcome: 'succeed' } }),
      400,
      'invalid_request',
    );
    expect(problem.detail).toMatch(/outcome/);
    expectProblem(await server.request('POST', '/agent/connect-link', { key: user.key, body: [] }), 400, 'invalid_request');
    expectProblem(
      await server.request('POST', '/agent/connect-link', { key: user.key, rawBody: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'malformed_json',
    );
    expectProblem(
      await server.request('POST', '/agent/connect-link', { key: user.key, rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('needs a valid API key', async () => {
    expectProblem(await server.request('POST', '/agent/setup-link'), 401, 'unauthorized');
    expectProblem(await server.request('POST', '/agent/connect-link', { key: 'pa_live_nonsense' }), 401, 'unauthorized');
  });
});

describe('sandbox setup pages', () => {
  it('GET shows an HTML page saying what will happen, with one button per outcome, and changes nothing', async () => {
    const link = await newLink(server, user, '/agent/setup-link');
    const page = await getPage(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain(user.handle);
    expect(page.text).toMatch(/<form method="post">/);
    for (const outcome of ['succeed', 'decline', 'cancel']) expect(page.text).toContain(`value="${outcome}"`);
    expect(page.text).not.toContain('value="return"');
    // Looking does not use the link.
    expect((await getPage(link.url)).status).toBe(200);
    expect((await processorRefs(user))?.card_ref ?? null).toBeNull();
  });

  it('the bank-debit page offers return, the payout page decline', async () => {
    const bank = await getPage((await newLink(server, user, '/agent/bank-debit-link')).url);
    expect(bank.text).toContain('value="return"');
    expect(bank.text).not.toContain('value="decline"');
    const payout = await getPage((await newLink(server, user, '/agent/connect-link')).url);
    expect(payout.text).toContain('value="decline"');
    expect(payout.text).not.toContain('value="return"');
  });

  it('POST completes the link (succeed by default); a second POST answers 410 and changes nothing', async () => {
    const link = await newLink(server, user, '/agent/setup-link');
    const done = await submitLink(server, link.url);
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toMatch(/^text\/html/);
    const card = (await processorRefs(user))?.card_ref;
    expect(card).toMatch(/^card_sbx_/);

    const again = await submitLink(server, link.url, 'decline');
    expect(again.status).toBe(410);
    expect(again.text).toMatch(/already been used/);
    expect((await processorRefs(user))?.card_ref).toBe(card);
    expect((await getPage(link.url)).status).toBe(410);
  });

  it('accepts the outcome as JSON too', async () => {
    const link = await newLink(server, other, '/agent/bank-debit-link');
    const response = await fetch(server.url + linkPath(link.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'return' }),
    });
    expect(response.status).toBe(200);
    const mandate = (await processorRefs(other))?.bank_debit_ref;
    const behaviour = await server.deps.db
      .selectFrom('sandbox_instruments')
      .select('behaviour')
      .where('ref', '=', mandate!)
      .executeTakeFirstOrThrow();
    expect(behaviour.behaviour).toBe('return');
  });

  it('cancel sets nothing up and uses the link', async () => {
    const fresh = await registerUser(server);
    const link = await newLink(server, fresh, '/agent/setup-link');
    expect((await submitLink(server, link.url, 'cancel')).status).toBe(200);
    expect((await processorRefs(fresh))?.card_ref ?? null).toBeNull();
    expectProblem(await send(server, fresh, { recipientHandle: user.handle, amount: 1, currency: 'USD' }), 402, 'card_setup_required');
    expect((await submitLink(server, link.url, 'succeed')).status).toBe(410);
    expect((await processorRefs(fresh))?.card_ref ?? null).toBeNull();
  });

  it('an outcome the page does not offer answers 400 and leaves the link usable', async () => {
    const fresh = await registerUser(server);
    const link = await newLink(server, fresh, '/agent/setup-link');
    for (const bad of ['return', 'SUCCEED', 'explode']) {
      const response = await submitLink(server, link.url, bad);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const repeated = await fetch(server.url + linkPath(link.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=succeed&outcome=decline',
    });
    expect(repeated.status).toBe(400);
    expect((await processorRefs(fresh))?.card_ref ?? null).toBeNull();
    expect((await submitLink(server, link.url, 'succeed')).status).toBe(200);
    expect((await processorRefs(fresh))?.card_ref).toMatch(/^card_sbx_/);
  });

  it('answers 404 for an unknown token, a malformed one, or a token used under another purpose', async () => {
    const link = await newLink(server, user, '/agent/setup-link');
    const token = link.url.split('/').pop()!;
    expect((await fetch(`${server.url}/links/card-setup/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${server.url}/links/card-setup/short`)).status).toBe(404);
    expect((await fetch(`${server.url}/links/payout-setup/${token}`)).status).toBe(404);
    expect((await fetch(`${server.url}/links/payout-setup/${token}`, { method: 'POST' })).status).toBe(404);
    // None of that used the link.
    expect((await getPage(link.url)).status).toBe(200);
  });

  it('concurrent submissions of one link: exactly one completes it', async () => {
    const fresh = await registerUser(server);
    const link = await newLink(server, fresh, '/agent/setup-link');
    const results = await Promise.all(Array.from({ length: 5 }, () => submitLink(server, link.url, 'succeed')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 410)).toHaveLength(4);
  });

  it('an expired link answers 410 and changes nothing', async () => {
    const fresh = await registerUser(server);
    const payoutLink = await newLink(server, fresh, '/agent/connect-link');
    const cardLink = await newLink(server, fresh, '/agent/setup-link');
    const before = await moneySnapshot(server);
    await advanceDays(server, 2);
    for (const link of [payoutLink, cardLink]) {
      const page = await getPage(link.url);
      expect(page.status).toBe(410);
      expect(page.text).toMatch(/expired/);
      expect((await submitLink(server, link.url, 'succeed')).status).toBe(410);
    }
    const refs = await processorRefs(fresh);
    expect(refs?.card_ref ?? null).toBeNull();
    expect(refs?.payout_ref ?? null).toBeNull();
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('a link completed after another of the same kind replaces the instrument', async () => {
    const fresh = await registerUser(server);
    const first = await newLink(server, fresh, '/agent/setup-link');
    const second = await newLink(server, fresh, '/agent/setup-link');
    await submitLink(server, first.url, 'decline');
    const declining = (await processorRefs(fresh))?.card_ref;
    await submitLink(server, second.url, 'succeed');
    const working = (await processorRefs(fresh))?.card_ref;
    expect(working).not.toBe(declining);
    const response = await send(server, fresh, { recipientHandle: user.handle, amount: 3, currency: 'USD' });
    expect(response.status).toBe(200);
  });
});

describe('logs', () => {
  it('never contain a link token', async () => {
    const link = await newLink(server, user, '/agent/bank-debit-link');
    const token = link.url.split('/').pop()!;
    await getPage(link.url);
    await submitLink(server, link.url, 'explode');
    await submitLink(server, link.url, 'succeed');
    await submitLink(server, link.url, 'succeed');
    const logs = server.logs.join('');
    expect(logs).toContain('/links/bank-debit-setup/');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(token.slice(0, 12));
  });
});
