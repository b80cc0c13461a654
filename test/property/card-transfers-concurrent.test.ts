// Model-based property test of concurrent card transfers (POST /transfers, instant) through both
// group commits (the intent's, src/fiat/transfer-intent-batch.ts, and the credit's,
// src/fiat/card-credit-batch.ts), on whichever database the test helper opens. Each round sends
// many transfers at once: from senders whose card succeeds, one whose card is declined and one with
// no card, to two recipients, some under Idempotency-Keys that repeat (with the same body or
// another), near a small daily limit. After every round: the ledger balances (each asset sums to
// zero, no user account below zero); the 2xx answers are exactly the completed transfers, each once
// (a replayed key answers the same transfer); every recipient holds exactly what its completed
// transfers brought; a refused member (declined, no card, over its limit, a key reused) recorded
// no money and its neighbours went through; a limit refusal only where the limit would be passed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestResponse, type TestServer, type TestUser } from '../helpers/test-server.js';
import { send, setUp } from '../helpers/fiat.js';
import { userMoney } from '../../src/fiat/card-risk/user-money.js';

const DAY_LIMIT_MINOR = 6_000n; // 60.00 USD, fees included
let server: TestServer;
let dir: string;
let runNo = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-card-prop-'));
  const file = path.join(dir, 'limits.json');
  fs.writeFileSync(file, JSON.stringify({ currencies: { USD: { day: '60.00' } }, newAccounts: { divisor: 1 } }));
  // Every run registers its own six users, and shrinking runs many: no rate limit in the way.
  server = await startTestServer({
    LIMITS_FILE: file,
    RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
  });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Senders 0 and 1 have a card that succeeds, 2 one that is declined, 3 none. */
const SENDERS = 4;
type Send = { sender: number; recipient: number; amount: number; key: number | null };
const sendArb: fc.Arbitrary<Send> = fc.record({
  sender: fc.constantFrom(0, 0, 1, 1, 2, 3),
  recipient: fc.nat(1),
  amount: fc.integer({ min: 49, max: 4000 }),
  key: fc.option(fc.nat(4), { nil: null }),
});

interface People {
  senders: TestUser[];
  senderIds: number[];
  recipients: TestUser[];
  recipientIds: number[];
}

async function idOf(user: TestUser): Promise<number> {
  return (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow()).id;
}

async function people(): Promise<People> {
  const senders = await Promise.all([...Array(SENDERS).keys()].map(() => registerUser(server)));
  const recipients = await Promise.all([0, 1].map(() => registerUser(server)));
  await setUp(server, senders[0]!, '/agent/setup-link');
  await setUp(server, senders[1]!, '/agent/setup-link');
  await setUp(server, senders[2]!, '/agent/setup-link', 'decline');
  return {
    senders,
    senderIds: await Promise.all(senders.map(idOf)),
    recipients,
    recipientIds: await Promise.all(recipients.map(idOf)),
  };
}

const fee = (minor: bigint) => (minor * 249n + 5000n) / 10000n;

interface Answered {
  send: Send;
  response: TestResponse;
}

/** What each answer may be, by its sender and key; the ids of the transfers answered 200. */
function expectAnswers(round: Answered[], run: number): Map<string, Send> {
  const completed = new Map<string, Send>();
  const byKey = new Map<string, string>();
  for (const { send: s, response } of round) {
    const label = `${JSON.stringify(s)} → ${response.status} ${response.text}`;
    if (response.status === 200) {
      expect(s.sender, label).toBeLessThan(2);
      expect(response.body.transfer.status, label).toBe('completed');
      expect(response.body.transfer.amount, label).toBe((s.amount / 100).toFixed(2));
      completed.set(response.body.transfer.id, s);
      if (s.key !== null) {
        // A replayed key answers the transfer its first request made.
        const key = `${run}/${s.sender}/${s.key}`;
        expect(byKey.get(key) ?? response.body.transfer.id, label).toBe(response.body.transfer.id);
        byKey.set(key, response.body.transfer.id);
      }
      continue;
    }
    const code = response.body?.code;
    if (s.sender === 2)
      expect(['card_declined', 'limit_exceeded', 'idempotency_key_reused', 'idempotency_key_in_use'], label).toContain(code);
    else if (s.sender === 3) expect(['card_setup_required', 'idempotency_key_reused', 'idempotency_key_in_use'], label).toContain(code);
    else expect(['limit_exceeded', 'idempotency_key_reused', 'idempotency_key_in_use'], label).toContain(code);
    if (code === 'idempotency_key_reused' || code === 'idempotency_key_in_use') expect(s.key, label).not.toBeNull();
  }
  return completed;
}

async function runRound(p: People, run: number, sends: Send[], all: Map<string, Send>): Promise<void> {
  const round: Answered[] = await Promise.all(
    sends.map(async (s) => ({
      send: s,
      response: await send(
        server,
        p.senders[s.sender]!,
        { recipientHandle: p.recipients[s.recipient]!.handle, amount: s.amount / 100, currency: 'USD' },
        s.key === null ? {} : { 'Idempotency-Key': `prop-${run}-${s.key}` },
      ),
    })),
  );
  for (const [id, s] of expectAnswers(round, run)) all.set(id, s);
  await expectBooks(p, round, all);
}

async function expectBooks(p: People, round: Answered[], all: Map<string, Send>): Promise<void> {
  const db = server.deps.db;
  expect(await checkLedgerInvariants(db)).toEqual([]);
  const rows = await db
    .selectFrom('fiat_transfers')
    .select(['id', 'status', 'sender_account_id', 'amount', 'fee'])
    .where('sender_account_id', 'in', p.senderIds)
    .execute();
  // Answers = committed transfers: the completed ones are exactly those answered 200, none is
  // left in processing, and only the declined card's failed.
  expect(new Set(rows.filter((r) => r.status === 'completed').map((r) => r.id))).toEqual(new Set(all.keys()));
  expect(rows.filter((r) => r.status === 'processing')).toEqual([]);
  for (const r of rows.filter((r) => r.status === 'failed')) expect(r.sender_account_id).toBe(p.senderIds[2]);
  // Each recipient holds exactly what its completed transfers brought (the sandbox holds nothing).
  for (let i = 0; i < 2; i++) {
    const expected = [...all.values()].filter((s) => s.recipient === i).reduce((sum, s) => sum + BigInt(s.amount), 0n);
    expect((await userMoney(db, p.recipientIds[i]!, 'USD')).availableMinor).toBe(expected);
  }
  // No sender passed its limit, and a limit refusal was one that would have passed it.
  for (let i = 0; i < 2; i++) {
    const used = rows
      .filter((r) => r.sender_account_id === p.senderIds[i] && r.status === 'completed')
      .reduce((sum, r) => sum + r.amount + r.fee, 0n);
    expect(used <= DAY_LIMIT_MINOR).toBe(true);
    for (const { send: s, response } of round) {
      if (s.sender === i && response.body?.code === 'limit_exceeded')
        expect(used + BigInt(s.amount) + fee(BigInt(s.amount)) > DAY_LIMIT_MINOR).toBe(true);
    }
  }
}

describe('concurrent card transfers against a model', () => {
  it('answers exactly the committed transfers, keeps the books, refuses members alone and replays keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(sendArb, { minLength: 1, maxLength: 16 }), { minLength: 1, maxLength: 4 }), async (rounds) => {
        const run = ++runNo;
        const p = await people();
        const all = new Map<string, Send>();
        for (const sends of rounds) await runRound(p, run, sends, all);
      }),
      { numRuns: 8 },
    );
  }, 600_000);
});
