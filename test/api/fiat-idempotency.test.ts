// Idempotency of POST /transfers (DESIGN §5): replays, a key reused with another body, concurrent
// duplicates, and the transfer's natural key that makes a retry after a crash or a processor
// failure continue the same transfer instead of charging twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { insertTransferIntent } from '../../src/fiat/fiat-transfers-repository.js';
import type { FiatTransfer } from '../../src/fiat/fiat-transfer.js';
import { ORPHAN_AFTER_MS } from '../../src/fiat/transfer-recovery.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, balances, chargesFor, moneySnapshot, send, setUp } from '../helpers/fiat.js';

let server: TestServer;
let sender: TestUser;
let recipient: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  sender = await registerUser(server);
  recipient = await registerUser(server);
  await setUp(server, sender, '/agent/setup-link');
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function accountId(user: TestUser): Promise<number> {
  return (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow()).id;
}

async function transfersWithKey(user: TestUser, key: string) {
  return server.deps.db
    .selectFrom('fiat_transfers')
    .selectAll()
    .where('sender_account_id', '=', await accountId(user))
    .where('idempotency_key', '=', key)
    .execute();
}

/** The state a crash leaves after recording a card transfer's intent: `processing`, not charged. */
async function crashedIntent(
  intent: Pick<FiatTransfer, 'id' | 'currency' | 'amountMinor' | 'feeMinor' | 'createdAt'> & { key: string | null },
) {
  const refs = await server.deps.db
    .selectFrom('processor_customers')
    .selectAll()
    .where('account_id', '=', await accountId(sender))
    .executeTakeFirstOrThrow();
  const row = await insertTransferIntent(server.deps.db, {
    id: intent.id,
    senderAccountId: await accountId(sender),
    recipientAccountId: await accountId(recipient),
    currency: intent.currency,
    amountMinor: intent.amountMinor,
    feeMinor: intent.feeMinor,
    paymentMethod: 'instant',
    status: 'processing',
    note: null,
    instrumentRef: refs.card_ref,
    processorRef: null,
    failureCode: null,
    idempotencyKey: intent.key,
    createdAt: intent.createdAt,
    settlesAt: null,
    completedAt: null,
  });
  return { intent: row, refs };
}

const body = () => ({ recipientHandle: recipient.handle, amount: 7.5, currency: 'USD' });

describe('Idempotency-Key on POST /transfers', () => {
  it('a repeat with the same key and body replays the first answer, and charges once', async () => {
    const key = 'replay-1';
    const first = await send(server, sender, body(), { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const balanceAfterFirst = await balances(server, recipient);

    const second = await send(server, sender, body(), { 'idempotency-key': key });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await balances(server, recipient)).toEqual(balanceAfterFirst);
    expect(await transfersWithKey(sender, key)).toHaveLength(1);
    expect(await chargesFor(server, [first.body.transfer.id])).toBe(1);
  });

  it('the same key with a different body answers 422 idempotency_key_reused and changes nothing', async () => {
    const key = 'reused-1';
    expect((await send(server, sender, body(), { 'idempotency-key': key })).status).toBe(200);
    const before = await moneySnapshot(server);
    expectProblem(await send(server, sender, { ...body(), amount: 8 }, { 'idempotency-key': key }), 422, 'idempotency_key_reused');
    expectProblem(
      await send(server, sender, { ...body(), paymentMethod: 'ach' }, { 'idempotency-key': key }),
      422,
      'idempotency_key_reused',
    );
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('keys are per account: another sender may use the same key', async () => {
    const key = 'shared-key';
    const other = await registerUser(server);
    await setUp(server, other, '/agent/setup-link');
    const a = await send(server, sender, body(), { 'idempotency-key': key });
    const b = await send(server, other, body(), { 'idempotency-key': key });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.transfer.id).not.toBe(a.body.transfer.id);
  });

  it('concurrent identical requests: one transfer and one charge; the others replay or get 409', async () => {
    const key = 'concurrent-1';
    const before = await balances(server, recipient);
    const responses = await Promise.all(Array.from({ length: 6 }, () => send(server, sender, body(), { 'idempotency-key': key })));
    const fresh = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    const replays = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === 'true');
    const inUse = responses.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(replays.length + inUse.length).toBe(5);
    for (const r of inUse) {
      expectProblem(r, 409, 'idempotency_key_in_use');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    for (const r of replays) expect(r.body).toEqual(fresh[0]!.body);
    const rows = await transfersWithKey(sender, key);
    expect(rows).toHaveLength(1);
    expect(await chargesFor(server, [rows[0]!.id])).toBe(1);
    const after = await balances(server, recipient);
    expect(BigInt(after.USD!.available.replace('.', '')) - BigInt(before.USD!.available.replace('.', ''))).toBe(750n);
  });

  it('concurrent requests without a key are separate transfers', async () => {
    const responses = await Promise.all(Array.from({ length: 3 }, () => send(server, sender, { ...body(), amount: 1 })));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(responses.map((r) => r.body.transfer.id)).size).toBe(3);
  });

  it('a declined card is replayed as the same 402, with no second charge attempt', async () => {
    const declined = await registerUser(server);
    await setUp(server, declined, '/agent/setup-link', 'decline');
    const key = 'declined-1';
    const first = expectProblem(await send(server, declined, body(), { 'idempotency-key': key }), 402, 'card_declined');
    const second = await send(server, declined, body(), { 'idempotency-key': key });
    expectProblem(second, 402, 'card_declined');
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const rows = await transfersWithKey(declined, key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
    expect(first.transferId).toBe(rows[0]!.id);
    expect(await chargesFor(server, [rows[0]!.id])).toBe(1);
  });
});

describe('the natural key: retries after a failure continue the same transfer', () => {
  it('when the stored answer is lost, a retry with the key finds the transfer instead of charging again', async () => {
    const key = 'lost-answer-1';
    const first = await send(server, sender, body(), { 'idempotency-key': key });
    expect(first.status).toBe(200);
    // As if the idempotency record had been lost (the server died before storing the answer).
    await server.deps.db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    const before = await moneySnapshot(server);
    const retry = await send(server, sender, body(), { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.body.transfer.id).toBe(first.body.transfer.id);
    expect(retry.body.transfer.status).toBe('completed');
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('a transfer left processing by a crash is charged once and completed by the retry', async () => {
    const key = 'crashed-1';
    // The state a crash right after recording the intent leaves behind.
    const { intent } = await crashedIntent({
      id: 'tr_crashedIntent0000000001',
      key,
      currency: 'USD',
      amountMinor: 750n,
      feeMinor: 19n,
      createdAt: server.deps.clock.now(),
    });
    expect(intent?.status).toBe('processing');
    const before = await balances(server, recipient);
    const retry = await send(server, sender, body(), { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.body.transfer).toMatchObject({
      id: 'tr_crashedIntent0000000001',
      status: 'completed',
      amount: '7.50',
      fee: '0.19',
      totalDeducted: '7.69',
    });
    expect(await chargesFor(server, ['tr_crashedIntent0000000001'])).toBe(1);
    const after = await balances(server, recipient);
    expect(after.USD!.available).not.toBe(before.USD!.available);
    // Asking again changes nothing more.
    const again = await send(server, sender, body(), { 'idempotency-key': key });
    expect(again.body.transfer.id).toBe('tr_crashedIntent0000000001');
    expect(await balances(server, recipient)).toEqual(after);
    expect(await chargesFor(server, ['tr_crashedIntent0000000001'])).toBe(1);
  });

  it('a processor failure answers 503 and leaves the transfer processing; the retry with the key completes it, charging once', async () => {
    const key = 'processor-down-1';
    // The two-step way (the intent, then the charge): the one-step send stands aside, as for a card
    // that declines, and the processor is down whichever way its card charge is then asked for: the
    // sandbox's charge written with its credit (chargesInCredit) or on its own (chargeCard).
    type Charging = { chargeCard: (...args: unknown[]) => Promise<unknown> };
    const processor = server.deps.processor as unknown as Charging & {
      chargesInCredit: Charging & { succeedingCharge: Charging['chargeCard'] };
    };
    const charging = [processor, processor.chargesInCredit];
    const chargeCards = charging.map((c) => c.chargeCard);
    const succeedingCharge = processor.chargesInCredit.succeedingCharge;
    for (const c of charging) {
      c.chargeCard = async () => {
        throw new Error('connection reset by the processor');
      };
    }
    processor.chargesInCredit.succeedingCharge = async () => null;
    const before = await moneySnapshot(server);
    let failed;
    try {
      failed = await send(server, sender, body(), { 'idempotency-key': key });
    } finally {
      charging.forEach((c, i) => (c.chargeCard = chargeCards[i]!));
      processor.chargesInCredit.succeedingCharge = succeedingCharge;
    }
    expectProblem(failed, 503, 'processor_unavailable');
    expect(failed.headers.get('retry-after')).toBe('5');
    expect(failed.body.detail).not.toContain('connection reset');
    expect(server.logs.join('')).toContain('connection reset by the processor');
    const [stuck] = await transfersWithKey(sender, key);
    expect(stuck?.status).toBe('processing');
    const ledgerBefore = JSON.parse(before).ledger;
    expect(JSON.parse(await moneySnapshot(server)).ledger).toEqual(ledgerBefore);

    const retry = await send(server, sender, body(), { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.transfer).toMatchObject({ id: stuck!.id, status: 'completed' });
    expect(await chargesFor(server, [stuck!.id])).toBe(1);
  });

  it('a processor failure before a one-step card send answers 503 and records nothing; the retry with the key sends it once', async () => {
    const key = 'processor-down-2';
    const processor = server.deps.processor as unknown as {
      chargesInCredit: { succeedingCharge: (...args: unknown[]) => Promise<unknown> };
    };
    const succeedingCharge = processor.chargesInCredit.succeedingCharge;
    processor.chargesInCredit.succeedingCharge = async () => {
      throw new Error('connection reset by the processor');
    };
    const before = await moneySnapshot(server);
    let failed;
    try {
      failed = await send(server, sender, body(), { 'idempotency-key': key });
    } finally {
      processor.chargesInCredit.succeedingCharge = succeedingCharge;
    }
    expectProblem(failed, 503, 'processor_unavailable');
    expect(failed.body.detail).not.toContain('connection reset');
    expect(await transfersWithKey(sender, key)).toEqual([]);
    expect(await moneySnapshot(server)).toBe(before);

    const retry = await send(server, sender, body(), { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.body.transfer).toMatchObject({ status: 'completed' });
    const [sent] = await transfersWithKey(sender, key);
    expect(sent?.id).toBe(retry.body.transfer.id);
    expect(await chargesFor(server, [sent!.id])).toBe(1);
  });

  it('a transfer left processing with its charge recorded apart is completed with that charge, charged once', async () => {
    const key = 'charged-apart-1';
    // A crash after the processor charged, the charge recorded on its own (as the recovery job, or
    // any caller of chargeCard, records it): the sandbox's charge meets its key taken when the
    // retry's credit comes to write it, and the retry asks again as chargeCard asks.
    const { intent, refs } = await crashedIntent({
      id: 'tr_chargedApart0000000001',
      key,
      currency: 'USD',
      amountMinor: 750n,
      feeMinor: 19n,
      createdAt: server.deps.clock.now(),
    });
    const charge = await server.deps.processor.chargeCard({
      transferId: intent!.id,
      customerRef: refs.customer_ref,
      cardRef: refs.card_ref!,
      currency: 'USD',
      amountMinor: 769n,
      idempotencyKey: intent!.id,
      description: `peerpay transfer ${intent!.id}`,
    });
    expect(charge.status).toBe('succeeded');
    const retry = await send(server, sender, body(), { 'idempotency-key': key });
    expect(retry.status).toBe(200);
    expect(retry.body.transfer).toMatchObject({ id: intent!.id, status: 'completed' });
    expect(await chargesFor(server, [intent!.id])).toBe(1);
    const row = await server.deps.db
      .selectFrom('fiat_transfers')
      .select('processor_ref')
      .where('id', '=', intent!.id)
      .executeTakeFirstOrThrow();
    expect(row.processor_ref).toBe(charge.chargeRef);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });

  it('an orphaned processing transfer without a key is finished by the recovery job', async () => {
    const id = 'tr_orphanedIntent000000001';
    await crashedIntent({
      id,
      key: null,
      currency: 'EUR',
      amountMinor: 300n,
      feeMinor: 7n,
      createdAt: new Date(server.deps.clock.now().getTime() - ORPHAN_AFTER_MS - 1000),
    });
    const before = (await balances(server, recipient)).EUR!.available;
    await advanceDays(server, 1);
    const row = await server.deps.db.selectFrom('fiat_transfers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
    expect(await chargesFor(server, [id])).toBe(1);
    const after = (await balances(server, recipient)).EUR!.available;
    expect(BigInt(after.replace('.', '')) - BigInt(before.replace('.', ''))).toBe(300n);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});
