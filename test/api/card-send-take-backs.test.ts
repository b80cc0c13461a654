// The sandbox's one-transaction card sends (decision 0063) at the same time as the take-backs of
// card risk (DESIGN §16) on the same accounts: rounds of concurrent card transfers, in both
// directions between two payers and from every payer to one recipient, while that recipient's
// earlier receipts are refunded by an operator and disputed (opened, then lost). The one-step batch
// locks senders' and recipients' accounts rows and then ledger rows; a take-back locks a transfer
// row, then its recipient's row, then ledger rows (card-risk/user-money.ts). Should two of them
// ever wait on each other, PostgreSQL refuses one with a deadlock and its request fails: every
// answer here must be a 200. After every round the ledger's invariants hold, and the recipient's
// money (held + available - owed) moved by exactly what it received less what was taken back:
// each credit, refund and dispute booked once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { userMoney } from '../../src/fiat/card-risk/user-money.js';
import { registerUser, startTestServer, type TestResponse, type TestServer, type TestUser } from '../helpers/test-server.js';
import { send, setUp } from '../helpers/fiat.js';

const TOKEN = 'operator-token-for-card-send-take-back-tests-0123';
const ROUNDS = 3;

let server: TestServer;
let recipient: TestUser;
let payers: TestUser[];

beforeAll(async () => {
  server = await startTestServer({ FIAT_HOLD_HOURS: '24', OPERATOR_TOKEN: TOKEN });
  recipient = await registerUser(server);
  payers = [];
  for (let i = 0; i < 4; i++) {
    const payer = await registerUser(server);
    await setUp(server, payer, '/agent/setup-link');
    payers.push(payer);
  }
});

afterAll(async () => {
  await server.close();
});

function pay(from: TestUser, to: TestUser, amount: number): Promise<TestResponse> {
  return send(server, from, { recipientHandle: to.handle, amount, currency: 'USD' });
}

function refund(transferId: string): Promise<TestResponse> {
  return server.request('POST', `/admin/transfers/${transferId}/refund`, {
    body: { reason: 'requested_by_customer', note: 'customer asked' },
    headers: { authorization: `Bearer ${TOKEN}`, 'Idempotency-Key': `refund-${transferId}` },
  });
}

async function disputeLost(transferId: string): Promise<TestResponse> {
  const opened = await server.request('POST', '/test-helpers/disputes', { body: { transferId } });
  if (opened.status !== 200) return opened;
  return server.request('POST', `/test-helpers/disputes/${opened.body.dispute.id}/close`, { body: { outcome: 'lost' } });
}

/** Sends that complete before the round: the receipts its take-backs take back, with their amounts in cents. */
async function receipts(count: number, first: number): Promise<{ ids: string[]; cents: bigint }> {
  const ids: string[] = [];
  let cents = 0n;
  for (let i = 0; i < count; i++) {
    const sent = await pay(payers[i % payers.length]!, recipient, first + i);
    expect(sent.status).toBe(200);
    ids.push(sent.body.transfer.id);
    cents += BigInt((first + i) * 100);
  }
  return { ids, cents };
}

/** The recipient's held + available - owed, in cents. */
async function net(): Promise<bigint> {
  const id = (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', recipient.handle).executeTakeFirstOrThrow()).id;
  const money = await userMoney(server.deps.db, id, 'USD');
  return money.heldMinor + money.availableMinor - money.owedMinor;
}

describe('one-transaction card sends beside refunds and disputes', () => {
  it('answers every request, and moves the recipient’s money by exactly what it received less what was taken back', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const before = await net();
      const toRefund = await receipts(4, 20);
      const toDispute = await receipts(4, 30);
      const [a, b, c, d] = payers as [TestUser, TestUser, TestUser, TestUser];
      const toRecipient = Array.from({ length: 6 }, (_, i) => 5 + i);
      const answers = await Promise.all([
        ...toRefund.ids.map(refund),
        ...toDispute.ids.map(disputeLost),
        ...Array.from({ length: 6 }, (_, i) => pay(a, b, 3 + i)),
        ...Array.from({ length: 6 }, (_, i) => pay(b, a, 4 + i)),
        ...toRecipient.map((amount, i) => pay(i % 2 === 0 ? c : d, recipient, amount)),
      ]);
      const failed = answers.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.body?.code ?? r.text}`);
      expect(failed).toEqual([]);

      expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
      const sent = answers.slice(toRefund.ids.length + toDispute.ids.length).map((r) => r.body.transfer.id as string);
      const statuses = await server.deps.db.selectFrom('fiat_transfers').select('status').where('id', 'in', sent).execute();
      expect(statuses.map((s) => s.status)).toEqual(sent.map(() => 'completed'));
      // Received: the receipts and this round's sends to it; taken back: every refunded and disputed receipt, whole.
      const received = toRefund.cents + toDispute.cents + toRecipient.reduce((sum, amount) => sum + BigInt(amount * 100), 0n);
      expect((await net()) - before).toBe(received - toRefund.cents - toDispute.cents);
    }
  });
});
