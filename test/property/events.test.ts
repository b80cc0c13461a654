// Property test of events (DESIGN §13) over random sequences of money-moving requests through the
// API, with repeats: stablecoin transfers, card and bank debit transfers, x402 payments from balance,
// and the clock settling bank debits. After every step each account's events are exactly what an
// independent model says the operations so far produce, one per (account, type, resource): a
// replayed request (same Idempotency-Key and body) or a refused one creates none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, send, setUp } from '../helpers/fiat.js';
import { accountIdOf, agentTransfer, fund } from '../helpers/stablecoin.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

type Command =
  | { kind: 'coin' | 'card' | 'ach'; from: number; to: number; cents: number }
  | { kind: 'repeat'; index: number }
  | { kind: 'nano'; from: number }
  | { kind: 'settle' };

type Move = Extract<Command, { kind: 'coin' | 'card' | 'ach' }>;

const USERS = 3;
const userIndex = fc.integer({ min: 0, max: USERS - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('coin' as const, 'card' as const, 'ach' as const),
    from: userIndex,
    to: userIndex,
    cents: fc.integer({ min: 100, max: 900 }),
  }),
  fc.record({ kind: fc.constant('repeat' as const), index: fc.nat(20) }),
  fc.record({ kind: fc.constant('nano' as const), from: userIndex }),
  fc.constant({ kind: 'settle' as const }),
);

/**
 * At most 5 settles of 5 days each: events are kept 30 days (a retention job deletes older ones
 * whenever it runs), so a longer run would lose the first events at a moment the model cannot tell.
 */
function withinRetention<C extends { kind: string }>(commands: C[]): C[] {
  let settles = 0;
  return commands.filter((c) => c.kind !== 'settle' || ++settles <= 5);
}

/** The events each account should have: `type subjectId` strings. */
class Model {
  events = new Map<number, string[]>();
  pendingAch: Array<{ id: string; from: number; to: number }> = [];
  add(user: number, type: string, subject: string): void {
    this.events.set(user, [...(this.events.get(user) ?? []), `${type} ${subject}`]);
  }
}

async function eventsOf(user: TestUser): Promise<string[]> {
  const rows = await server.deps.db
    .selectFrom('events')
    .select(['type', 'subject_id'])
    .where('account_id', '=', await accountIdOf(server, user))
    .execute();
  return rows.map((r) => `${r.type} ${r.subject_id}`).sort();
}

describe('events', () => {
  it('every operation produces exactly its events, to both sides, and a replay none', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }).map(withinRetention), async (commands) => {
        run++;
        const users: TestUser[] = [];
        const model = new Model();
        for (let i = 0; i < USERS; i++) {
          const user = await registerUser(server);
          await setUp(server, user, '/agent/setup-link');
          await setUp(server, user, '/agent/bank-debit-link');
          await fund(server, user, 1_000_000_000n);
          users.push(user);
        }
        for (let i = 0; i < USERS; i++) {
          const links = (await eventsOf(users[i]!)).filter((e) => e.startsWith('link.completed '));
          expect(links).toHaveLength(2);
          for (const link of links) model.add(i, 'link.completed', link.split(' ')[1]!);
        }
        const done: Array<{ command: Move; key: string }> = [];
        for (const [step, c] of commands.entries()) {
          let current: Exclude<Command, { kind: 'repeat' }>;
          let key = `prop-${run}-${step}`;
          let repeat = false;
          if (c.kind === 'repeat') {
            const earlier = done[c.index % Math.max(1, done.length)];
            if (!earlier) continue;
            current = earlier.command;
            key = earlier.key;
            repeat = true;
          } else {
            current = c;
          }
          if (current.kind === 'settle') {
            await advanceDays(server, 5);
            for (const t of model.pendingAch.splice(0)) {
              model.add(t.from, 'transfer.completed', t.id);
              model.add(t.to, 'transfer.completed', t.id);
            }
          } else if (current.kind === 'nano') {
            const paid = await server.request('GET', `/nano/lookup?handle=${users[(current.from + 1) % USERS]!.handle}`, {
              key: users[current.from]!.key,
              headers: { 'x-payment-source': 'balance' },
            });
            expect(paid.status).toBe(200);
            model.add(current.from, 'x402.payment.settled', paid.headers.get('x-payment-id')!);
          } else {
            const { from, to, cents } = current;
            const sender = users[from]!;
            const recipient = users[to]!;
            const answer =
              current.kind === 'coin'
                ? await agentTransfer(
                    server,
                    sender,
                    { to: recipient.handle, amount: cents / 100, currency: 'USDC' },
                    { 'Idempotency-Key': key },
                  )
                : await send(
                    server,
                    sender,
                    {
                      recipientHandle: recipient.handle,
                      amount: cents / 100,
                      currency: 'USD',
                      paymentMethod: current.kind === 'card' ? 'instant' : 'ach',
                    },
                    { 'Idempotency-Key': key },
                  );
            if (from === to) {
              // Refused: nothing happened, nothing to tell.
              expect(answer.status).toBe(400);
            } else {
              expect(answer.status, answer.text).toBe(200);
              expect(answer.headers.get('idempotent-replayed') === 'true').toBe(repeat);
              if (!repeat) {
                const id: string = current.kind === 'coin' ? answer.body.transferId : answer.body.transfer.id;
                model.add(from, 'transfer.sent', id);
                model.add(to, 'transfer.received', id);
                if (current.kind === 'card') {
                  model.add(from, 'transfer.completed', id);
                  model.add(to, 'transfer.completed', id);
                }
                if (current.kind === 'ach') model.pendingAch.push({ id, from, to });
                done.push({ command: current, key });
              }
            }
          }
          for (let i = 0; i < USERS; i++)
            expect(await eventsOf(users[i]!), `user ${i} after step ${step}`).toEqual([...(model.events.get(i) ?? [])].sort());
        }
      }),
      { numRuns: 10, endOnFailure: true },
    );
  });
});
