// The Idempotency-Key of a stablecoin transfer is claimed and answered in the group commit's
// transaction, with the transfer (decision 0050): the record goes in completed, with the very body
// the client gets, or not at all. What a claim before the work used to answer, the record found by
// the batch answers now: a key another request holds, a replay whose terms no longer hold, another
// body under a used key, and a refused member of a batch, which keeps no record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { accountIdOf, agentTransfer, fund, stablecoinSnapshot } from '../helpers/stablecoin.js';

const OPERATOR_TOKEN = 'operator-token-for-idempotency-tests-0123456789';
let server: TestServer;
let sender: TestUser;
let recipient: TestUser;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  sender = await registerUser(server);
  recipient = await registerUser(server);
  await fund(server, sender, 1_000_000_000n);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  // No request of these routes leaves a claim behind: a record is written completed, or not at all.
  expect(await server.deps.db.selectFrom('idempotency_keys').select('key').where('state', '=', 'in_progress').execute()).toEqual([]);
  await server.close();
});

async function recordOf(user: TestUser, key: string) {
  return server.deps.db
    .selectFrom('idempotency_keys')
    .select(['state', 'response_status', 'response_body'])
    .where('account_id', '=', await accountIdOf(server, user))
    .where('key', '=', key)
    .executeTakeFirst();
}

async function transfersWithKey(user: TestUser, key: string): Promise<number> {
  const rows = await server.deps.db
    .selectFrom('stablecoin_transfers')
    .select('id')
    .where('sender_account_id', '=', await accountIdOf(server, user))
    .where('idempotency_key', '=', key)
    .execute();
  return rows.length;
}

const body = (amount = 2) => ({ to: recipient.handle, amount, currency: 'USDC' });

describe('the key record written with the transfer', () => {
  it('holds the answer sent, byte for byte, and a replay sends it again', async () => {
    const first = await agentTransfer(server, sender, body(), { 'idempotency-key': 'stored-1' });
    expect(first.status).toBe(200);
    expect(await recordOf(sender, 'stored-1')).toEqual({ state: 'completed', response_status: 200, response_body: first.text });
    const replay = await agentTransfer(server, sender, body(), { 'idempotency-key': 'stored-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(await transfersWithKey(sender, 'stored-1')).toBe(1);
  });

  it('a key another request holds makes no transfer: another body 422, the same body still running 409', async () => {
    const accountId = await accountIdOf(server, sender);
    const held = [
      { key: 'held-other-done', request_hash: 'another-route', state: 'completed' as const, status: 422, code: 'idempotency_key_reused' },
      {
        key: 'held-other-running',
        request_hash: 'another-route',
        state: 'in_progress' as const,
        status: 422,
        code: 'idempotency_key_reused',
      },
    ];
    for (const h of held) {
      await server.deps.db
        .insertInto('idempotency_keys')
        .values({
          account_id: accountId,
          key: h.key,
          request_hash: h.request_hash,
          state: h.state,
          response_status: 201,
          response_body: '{}',
        })
        .execute();
    }
    const before = await stablecoinSnapshot(server);
    for (const h of held) {
      expectProblem(await agentTransfer(server, sender, body(), { 'idempotency-key': h.key }), h.status, h.code);
      expect(await transfersWithKey(sender, h.key)).toBe(0);
    }
    expect(await stablecoinSnapshot(server)).toBe(before);
    await server.deps.db.deleteFrom('idempotency_keys').where('key', '=', 'held-other-running').execute();
  });

  it('a claim of this very request still running elsewhere (taken before the work) answers 409', async () => {
    // The hash of the request as the plugin takes it: found by sending it first under another key.
    const probe = await agentTransfer(server, sender, body(3), { 'idempotency-key': 'probe-1' });
    expect(probe.status).toBe(200);
    const accountId = await accountIdOf(server, sender);
    const { request_hash } = await server.deps.db
      .selectFrom('idempotency_keys')
      .select('request_hash')
      .where('account_id', '=', accountId)
      .where('key', '=', 'probe-1')
      .executeTakeFirstOrThrow();
    await server.deps.db
      .insertInto('idempotency_keys')
      .values({ account_id: accountId, key: 'running-1', request_hash, state: 'in_progress' })
      .execute();
    const before = await stablecoinSnapshot(server);
    const response = await agentTransfer(server, sender, body(3), { 'idempotency-key': 'running-1' });
    expectProblem(response, 409, 'idempotency_key_in_use');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await stablecoinSnapshot(server)).toBe(before);
    await server.deps.db.deleteFrom('idempotency_keys').where('key', '=', 'running-1').execute();
  });
});

describe('what the record answers before the transfer is looked at', () => {
  it('a replay is answered even when its terms now refuse a new transfer (a frozen sender)', async () => {
    const frozen = await registerUser(server);
    await fund(server, frozen, 10_000_000n);
    const first = await agentTransfer(server, frozen, body(), { 'idempotency-key': 'before-freeze' });
    expect(first.status).toBe(200);
    const asOperator = { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } };
    const id = await accountIdOf(server, frozen);
    expect(
      (await server.request('POST', `/admin/accounts/${id}/freeze`, { ...asOperator, body: { scope: 'all', note: 'test' } })).status,
    ).toBe(200);
    const replay = await agentTransfer(server, frozen, body(), { 'idempotency-key': 'before-freeze' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expectProblem(await agentTransfer(server, frozen, body(), { 'idempotency-key': 'after-freeze' }), 403, 'account_frozen');
    expect(await recordOf(frozen, 'after-freeze')).toBeUndefined();
  });

  it('another body under a used key is 422 even when that body would be refused (too small, unknown recipient)', async () => {
    expect((await agentTransfer(server, sender, body(), { 'idempotency-key': 'used-then-bad' })).status).toBe(200);
    const before = await stablecoinSnapshot(server);
    expectProblem(await agentTransfer(server, sender, body(0.001), { 'idempotency-key': 'used-then-bad' }), 422, 'idempotency_key_reused');
    expectProblem(
      await agentTransfer(server, sender, { ...body(), to: 'nobody-here@example.com' }, { 'idempotency-key': 'used-then-bad' }),
      422,
      'idempotency_key_reused',
    );
    expect(await stablecoinSnapshot(server)).toBe(before);
  });
});

describe('a batch with a refused member', () => {
  it('keeps no record for the refused member and every other one for its transfer; the refused key sends once funded', async () => {
    const poor = await registerUser(server);
    const rich = await Promise.all(Array.from({ length: 5 }, () => registerUser(server)));
    for (const user of rich) await fund(server, user, 10_000_000n);
    // Sent at once, so that they share batches: the poor sender's transfer is refused among them.
    const responses = await Promise.all([
      agentTransfer(server, poor, body(), { 'idempotency-key': 'mixed-poor' }),
      ...rich.map((user, i) => agentTransfer(server, user, body(), { 'idempotency-key': `mixed-${i}` })),
    ]);
    expectProblem(responses[0], 400, 'insufficient_balance');
    expect(await recordOf(poor, 'mixed-poor')).toBeUndefined();
    expect(await transfersWithKey(poor, 'mixed-poor')).toBe(0);
    for (const [i, user] of rich.entries()) {
      const response = responses[i + 1]!;
      expect(response.status).toBe(200);
      expect((await recordOf(user, `mixed-${i}`))?.response_body).toBe(response.text);
    }
    await fund(server, poor, 2_000_000n);
    const retry = await agentTransfer(server, poor, body(), { 'idempotency-key': 'mixed-poor' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await transfersWithKey(poor, 'mixed-poor')).toBe(1);
  });
});
