// Property test over the API: random sequences of stablecoin transfers among a few users, some of
// them sent concurrently, checked against a model kept in bigint. After every run: each answer is
// what the model predicts, every balance equals the model's, no balance is below zero, the ledger's
// invariants hold, and users' balances plus the fees collected equal what was funded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { feesOf } from '../helpers/ledger.js';
import { formatMinorTrimmed } from '../../src/money/amount.js';
import { registerUser, startTestServer, type TestResponse, type TestServer, type TestUser } from '../helpers/test-server.js';
import { agentTransfer, balanceOf, emailTransfer, fund, minorOf } from '../helpers/stablecoin.js';

type Token = 'USDC' | 'EURC';
const TOKENS: Token[] = ['USDC', 'EURC'];
const USERS = 3;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** The fee by the contract's rule, written independently of src/money/fees.ts: 1.49%, half-up, at least one unit. */
function modelFee(amountMinor: bigint): bigint {
  const scaled = amountMinor * 149n;
  const fee = scaled / 10_000n + (scaled % 10_000n >= 5_000n ? 1n : 0n);
  return fee < 1n ? 1n : fee;
}

/** The smallest transfer (DESIGN §15): 0.01 of either token. */
const MINIMUM_MINOR = 10_000n;

interface Send {
  from: number;
  to: number;
  amountMinor: bigint;
  token: Token;
  /** How the recipient is named. */
  via: 'handle' | 'email' | 'recipientEmail';
}

const sendArb: fc.Arbitrary<Send> = fc.record({
  from: fc.integer({ min: 0, max: USERS - 1 }),
  to: fc.integer({ min: 0, max: USERS - 1 }),
  // Mostly everyday amounts, sometimes dust (under the 0.01 minimum), amounts at the minimum, or more than anyone has.
  amountMinor: fc.oneof(
    fc.bigInt({ min: 1n, max: 40n }),
    fc.bigInt({ min: MINIMUM_MINOR - 5n, max: MINIMUM_MINOR + 40n }),
    fc.bigInt({ min: 1n, max: 30_000_000n }),
    fc.bigInt({ min: 30_000_000n, max: 200_000_000n }),
  ),
  token: fc.constantFrom<Token>('USDC', 'EURC'),
  via: fc.constantFrom<Send['via']>('handle', 'email', 'recipientEmail'),
});

const scenarioArb = fc.record({
  funding: fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 60_000_000n }), fc.bigInt({ min: 0n, max: 60_000_000n })), {
    minLength: USERS,
    maxLength: USERS,
  }),
  sequential: fc.array(sendArb, { maxLength: 10 }),
  concurrent: fc.array(sendArb, { maxLength: 8 }),
});

function request(users: TestUser[], s: Send): Promise<TestResponse> {
  const from = users[s.from]!;
  const to = users[s.to]!;
  // The JSON number for an exact decimal: built from the decimal string, never by float arithmetic.
  const amount = Number(formatMinorTrimmed(s.amountMinor, s.token));
  if (s.via === 'recipientEmail') return emailTransfer(server, from, { recipientEmail: to.email, amount, currency: s.token });
  return agentTransfer(server, from, { to: s.via === 'handle' ? to.handle : to.email, amount, currency: s.token });
}

async function feesCollected(token: Token): Promise<bigint> {
  // Fees are kept in shards (ledger-accounts.ts): their sum is the platform's fees.
  return feesOf(server.deps.db, token);
}

describe('random transfers among a few users', () => {
  it('keep every unit, never overdraw, and answer as the model predicts', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ funding, sequential, concurrent }) => {
        const users: TestUser[] = [];
        for (let i = 0; i < USERS; i++) users.push(await registerUser(server));
        const model = users.map((_, i) => ({ USDC: funding[i]![0], EURC: funding[i]![1] }));
        for (let i = 0; i < USERS; i++) {
          for (const token of TOKENS) if (model[i]![token] > 0n) await fund(server, users[i]!, model[i]![token], token);
        }
        const feesBefore = { USDC: await feesCollected('USDC'), EURC: await feesCollected('EURC') };
        const modelFees: Record<Token, bigint> = { USDC: 0n, EURC: 0n };
        const apply = (s: Send, fee: bigint) => {
          model[s.from]![s.token] -= s.amountMinor;
          model[s.to]![s.token] += s.amountMinor - fee;
          modelFees[s.token] += fee;
        };

        // One at a time: each answer is exactly what the model predicts.
        for (const s of sequential) {
          const response = await request(users, s);
          const fee = modelFee(s.amountMinor);
          if (s.amountMinor < MINIMUM_MINOR) {
            expect(response.status).toBe(400);
            expect(response.body.code).toBe('amount_too_small');
            expect(response.body.minimum).toBe('0.01');
          } else if (s.from === s.to) {
            expect(response.status).toBe(400);
            expect(response.body.code).toBe('self_transfer');
          } else if (s.amountMinor > model[s.from]![s.token]) {
            expect(response.status).toBe(400);
            expect(response.body.code).toBe('insufficient_balance');
          } else {
            expect(response.status, response.text).toBe(200);
            expect(response.body.amount).toBe(Number(formatMinorTrimmed(s.amountMinor, s.token)));
            expect(response.body.fee).toBe(Number(formatMinorTrimmed(fee, s.token)));
            expect(response.body.recipientAmount).toBe(Number(formatMinorTrimmed(s.amountMinor - fee, s.token)));
            apply(s, fee);
          }
        }

        // All at once: which ones win a race is not predictable, but every success must be one the
        // model can apply without going below zero, and every refusal a clean one.
        const responses = await Promise.all(concurrent.map((s) => request(users, s)));
        responses.forEach((response, i) => {
          const s = concurrent[i]!;
          if (response.status === 200) apply(s, modelFee(s.amountMinor));
          else
            expect(response.body.code).toBe(
              s.amountMinor < MINIMUM_MINOR ? 'amount_too_small' : s.from === s.to ? 'self_transfer' : 'insufficient_balance',
            );
        });

        const held: Record<Token, bigint> = { USDC: 0n, EURC: 0n };
        for (let i = 0; i < USERS; i++) {
          const balance = await balanceOf(server, users[i]!);
          for (const token of TOKENS) {
            expect(minorOf(balance[token])).toBeGreaterThanOrEqual(0n);
            expect(minorOf(balance[token])).toBe(model[i]![token]);
            held[token] += minorOf(balance[token]);
          }
        }
        for (const token of TOKENS) {
          const fees = (await feesCollected(token)) - feesBefore[token];
          expect(fees).toBe(modelFees[token]);
          const funded = funding.reduce((sum, f) => sum + (token === 'USDC' ? f[0] : f[1]), 0n);
          expect(held[token] + fees).toBe(funded);
        }
        expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
      }),
      { numRuns: 15, endOnFailure: true },
    );
  }, 240_000);
});
