// Idempotency-Key on the stablecoin transfer endpoints (DESIGN §5): replays, a key reused with
// another body, concurrent duplicates, the natural key under a lost answer, and a refusal that
// releases the key so the same key works once the cause is fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { accountIdOf, agentTransfer, balanceOf, emailTransfer, fund, minorOf, stablecoinSnapshot } from '../helpers/stablecoin.js';

let server: TestServer;
let sender: TestUser;
let recipient: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  sender = await registerUser(server);
  recipient = await registerUser(server);
  await fund(server, sender, 1_000_000_000n);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function transfersWithKey(user: TestUser, key: string) {
  return server.deps.db
    .selectFrom('stablecoin_transfers')
    .selectAll()
    .where('sender_account_id', '=', await accountIdOf(server, user))
    .where('idempotency_key', '=', key)
    .execute();
}

const body = () => ({ to: recipient.handle, amount: 7.5, currency: 'USDC' });

describe('Idempotency-Key on POST /agent/transfer and POST /stablecoin/transfer', () => {
  it('a repeat with the same key and body replays the first answer and sends once', async () => {
    const key = 'replay-1';
    const first = await agentTransfer(server, sender, body(), { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const after = await stablecoinSnapshot(server);
    const second = await agentTransfer(server, sender, body(), { 'idempotency-key': key });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await stablecoinSnapshot(server)).toBe(after);
    expect(await transfersWithKey(sender, key)).toHaveLength(1);
  });

  it('works the same on /stablecoin/transfer', async () => {
    const key = 'replay-email-1';
    const b = { recipientEmail: recipient.email, amount: 1, currency: 'EURC' };
    await fund(server, sender, 1_000_000n, 'EURC');
    const first = await emailTransfer(server, sender, b, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const second = await emailTransfer(server, sender, b, { 'idempotency-key': key });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.transferId).toBe(first.body.transferId);
    expect((await balanceOf(server, sender)).EURC).toBe('0.000000');
  });

  it('the same key with a different body answers 422 idempotency_key_reused and changes nothing', async () => {
    const key = 'reused-1';
    expect((await agentTransfer(server, sender, body(), { 'idempotency-key': key })).status).toBe(200);
    const before = await stablecoinSnapshot(server);
    expectProblem(await agentTransfer(server, sender, { ...body(), amount: 8 }, { 'idempotency-key': key }), 422, 'idempotency_key_reused');
    expectProblem(
      await agentTransfer(server, sender, { ...body(), currency: 'EURC' }, { 'idempotency-key': key }),
      422,
      'idempotency_key_reused',
    );
    expectProblem(
      await agentTransfer(server, sender, { ...body(), to: recipient.email }, { 'idempotency-key': key }),
      422,
      'idempotency_key_reused',
    );
    expect(await stablecoinSnapshot(server)).toBe(before);
  });

  it('keys are per account: another sender may use the same key', async () => {
    const other = await registerUser(server);
    await fund(server, other, 10_000_000n);
    const a = await agentTransfer(server, sender, body(), { 'idempotency-key': 'shared-key' });
    const b = await agentTransfer(server, other, body(), { 'idempotency-key': 'shared-key' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.transferId).not.toBe(a.body.transferId);
  });

  it('concurrent identical requests make one transfer; the others replay it or get 409', async () => {
    const key = 'concurrent-1';
    const before = minorOf((await balanceOf(server, recipient)).USDC);
    const responses = await Promise.all(Array.from({ length: 8 }, () => agentTransfer(server, sender, body(), { 'idempotency-key': key })));
    const fresh = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    const replays = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === 'true');
    const inUse = responses.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(replays.length + inUse.length).toBe(7);
    for (const r of inUse) expectProblem(r, 409, 'idempotency_key_in_use');
    for (const r of replays) expect(r.body).toEqual(fresh[0]!.body);
    expect(await transfersWithKey(sender, key)).toHaveLength(1);
    expect(minorOf((await balanceOf(server, recipient)).USDC) - before).toBe(7_388_250n);
  });

  it('many keyed requests at once (shared and fresh keys, same and other bodies) get the answers of some order one after the other', async () => {
    // The claims of requests that reach the store in one turn share a statement; whatever the
    // grouping, each request must get what it would get in some sequential order: per key one
    // transfer, repeats of its body replayed or 409, another body 422, fresh keys each their own.
    const amounts = [1, 2] as const;
    const calls: { key: string; amount: number }[] = [];
    for (let k = 0; k < 4; k++) {
      for (const amount of [amounts[0], amounts[0], amounts[1], amounts[0]]) calls.push({ key: `burst-shared-${k}`, amount });
    }
    for (let k = 0; k < 8; k++) calls.push({ key: `burst-fresh-${k}`, amount: amounts[k % 2]! });
    const senderBefore = minorOf((await balanceOf(server, sender)).USDC);
    const responses = await Promise.all(
      calls.map((c) => agentTransfer(server, sender, { ...body(), amount: c.amount }, { 'idempotency-key': c.key })),
    );
    let spent = 0n;
    for (const key of new Set(calls.map((c) => c.key))) {
      const mine = calls.flatMap((c, i) => (c.key === key ? [{ ...c, response: responses[i]! }] : []));
      const fresh = mine.filter((m) => m.response.status === 200 && m.response.headers.get('idempotent-replayed') === null);
      expect(fresh, key).toHaveLength(1);
      const winner = fresh[0]!;
      spent += BigInt(winner.amount) * 1_000_000n;
      for (const m of mine.filter((x) => x !== winner)) {
        if (m.amount !== winner.amount) expectProblem(m.response, 422, 'idempotency_key_reused');
        else if (m.response.status === 409) expectProblem(m.response, 409, 'idempotency_key_in_use');
        else {
          expect(m.response.status, key).toBe(200);
          expect(m.response.headers.get('idempotent-replayed'), key).toBe('true');
          expect(m.response.body, key).toEqual(winner.response.body);
        }
      }
      const stored = await transfersWithKey(sender, key);
      expect(
        stored.map((t) => t.id),
        key,
      ).toEqual([winner.response.body.transferId]);
    }
    expect(senderBefore - minorOf((await balanceOf(server, sender)).USDC)).toBe(spent);
  });

  it('concurrent requests without a key are separate transfers', async () => {
    const responses = await Promise.all(Array.from({ length: 3 }, () => agentTransfer(server, sender, { ...body(), amount: 1 })));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(responses.map((r) => r.body.transferId)).size).toBe(3);
  });

  it('an insufficient balance releases the key: after funding, the same key sends', async () => {
    const poor = await registerUser(server);
    const key = 'fund-then-retry';
    const b = { to: recipient.handle, amount: 5, currency: 'USDC' };
    expectProblem(await agentTransfer(server, poor, b, { 'idempotency-key': key }), 400, 'insufficient_balance');
    await fund(server, poor, 5_000_000n);
    const retry = await agentTransfer(server, poor, b, { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(server, poor)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect(await transfersWithKey(poor, key)).toHaveLength(1);
  });
});

describe('the natural key: a retry whose stored answer was lost', () => {
  it('finds the transfer instead of sending again', async () => {
    const key = 'lost-answer-1';
    const first = await agentTransfer(server, sender, body(), { 'idempotency-key': key });
    expect(first.status).toBe(200);
    // As if the idempotency record had been lost (the server died before storing the answer).
    await server.deps.db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    const before = await stablecoinSnapshot(server);
    const retry = await agentTransfer(server, sender, body(), { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await stablecoinSnapshot(server)).toBe(before);
  });

  it('refuses a different transfer under that key with 422, also without the stored record', async () => {
    const key = 'lost-answer-2';
    expect((await agentTransfer(server, sender, body(), { 'idempotency-key': key })).status).toBe(200);
    await server.deps.db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    const before = await stablecoinSnapshot(server);
    expectProblem(
      await agentTransfer(server, sender, { ...body(), amount: 7.4 }, { 'idempotency-key': key }),
      422,
      'idempotency_key_reused',
    );
    expect(await stablecoinSnapshot(server)).toBe(before);
  });

  it('the same transfer named another way (e-mail instead of handle) is the same transfer', async () => {
    const key = 'lost-answer-3';
    const first = await agentTransfer(server, sender, body(), { 'idempotency-key': key });
    await server.deps.db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    const retry = await emailTransfer(
      server,
      sender,
      { recipientEmail: recipient.email, amount: 7.5, currency: 'USDC' },
      { 'idempotency-key': key },
    );
    expect(retry.status).toBe(200);
    expect(retry.body.transferId).toBe(first.body.transferId);
    expect(await transfersWithKey(sender, key)).toHaveLength(1);
  });
});
