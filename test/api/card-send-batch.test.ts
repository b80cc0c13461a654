// The sandbox's card transfer written whole in one group commit (src/fiat/card-send-batch.ts,
// decision 0063): the intent recorded completed with its charge, credit, limit volume and events in
// one transaction, in fewer statements than the two steps (intent, then credit); a replay racing its
// first request answered that transfer; a keyed send beyond its limits checked for its key apart,
// its neighbour written; a sender frozen after its standing was read refused in the batch, nothing
// recorded for it, its neighbour written. Driven through the fiat transfers service, on whichever
// database the test helper opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createGroupCommit, type BatchReport, type GroupCommitOptions } from '../../src/ledger/group-commit.js';
import { createAccountLookups } from '../../src/accounts/account-lookups.js';
import { createCardSendWriter, prepareCardSends, type CardSends } from '../../src/fiat/card-send-batch.js';
import { writeCardCredits } from '../../src/fiat/card-credit-batch.js';
import { prepareCardCredits } from '../../src/fiat/card-credit-locks.js';
import { createIntentBatchWriter } from '../../src/fiat/transfer-intent-batch.js';
import { createFiatTransfers, type FiatTransfers } from '../../src/fiat/fiat-transfers.js';
import { sendTransfer } from '../../src/fiat/fiat-transfer-service.js';
import { coalescedStandings } from '../../src/fiat/transfer-standing.js';
import { freezeAccount } from '../../src/compliance/freezes/account-freezes.js';
import { AppError } from '../../src/platform/errors.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { cardSender, cardSendInput, chargesFor } from '../helpers/fiat.js';
import { statementCounter } from '../helpers/statement-counter.js';

let server: TestServer;
let recipient: TestUser;
const counter = statementCounter();
const quick: GroupCommitOptions = { maxBatch: 8, maxWaitMs: 1, concurrency: 1, maxQueued: 100 };

beforeAll(async () => {
  // The default limits: a new account may send USD 1,000.00 a day.
  server = await startTestServer({ LIMITS_FILE: '' });
  recipient = await registerUser(server);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

const sender = () => cardSender(server);

const input = (from: { user: TestUser; id: number }, amount: number, idempotencyKey: string | null) =>
  cardSendInput(from, recipient, amount, idempotencyKey);

/** The service's parts over the counting handle: the two steps' group commits, and the one step's when `cardSends` is given. */
function parts(cardSends?: (db: TestServer['deps']['db']) => CardSends) {
  const { clock, config, processor, limits } = server.deps;
  const db = counter.db(server.deps.db);
  return {
    db,
    clock,
    config,
    processor,
    limits,
    accountLookups: createAccountLookups(db),
    transferIntents: createGroupCommit(db, createIntentBatchWriter({ limits }), quick),
    cardCredits: createGroupCommit(db, writeCardCredits, quick, prepareCardCredits),
    ...(cardSends ? { cardSends: cardSends(db) } : {}),
  };
}

function oneStep(db: TestServer['deps']['db'], options: GroupCommitOptions = quick): CardSends {
  return createGroupCommit(db, createCardSendWriter({ limits: server.deps.limits }), options, prepareCardSends);
}

/** The sender's standing as read before the transfer under its key (or the freeze) committed. */
function racing(deps: ReturnType<typeof parts>, change: { earlier?: null; freeze?: null }) {
  const standings = coalescedStandings(deps.db);
  return { ...deps, standings: async (key: Parameters<typeof standings>[0]) => ({ ...(await standings(key)), ...change }) };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe('a sandbox card transfer in one group commit', () => {
  it('is recorded completed with its charge, credit and events, in fewer statements than the two steps', async () => {
    const a = await sender();
    const two: FiatTransfers = createFiatTransfers(parts());
    const one: FiatTransfers = createFiatTransfers(parts((db) => oneStep(db)));
    // The first send of each creates the ledger accounts it names; the second is what every one costs.
    await two.send(input(a, 1, null));
    await one.send(input(a, 1, null));
    const twoSteps = await counter.during(() => two.send(input(a, 2, null)));
    let sent: Awaited<ReturnType<FiatTransfers['send']>> | undefined;
    const oneStepCount = await counter.during(async () => {
      sent = await one.send(input(a, 2.5, 'one-step-1'));
    });
    // Statements through the handle (BEGIN and COMMIT not counted: the two steps are two
    // transactions, the one step one): the key's standing, then the one transaction's locks, the
    // recipients' debts with the limits' standing (decision 0065), the ledger's accounts and the one
    // write; each way one more when the batch's fee shard is an account its group commit has not
    // met yet (created).
    expect(twoSteps).toBeGreaterThanOrEqual(9);
    expect(twoSteps).toBeLessThanOrEqual(10);
    expect(oneStepCount).toBeGreaterThanOrEqual(5);
    expect(oneStepCount).toBeLessThanOrEqual(6);
    const transfer = sent!.transfer;
    expect(transfer).toMatchObject({ status: 'completed', amountMinor: 250n, idempotencyKey: 'one-step-1' });
    const row = await server.deps.db.selectFrom('fiat_transfers').selectAll().where('id', '=', transfer.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'completed', processor_ref: transfer.processorRef });
    expect(row.completed_at).not.toBeNull();
    const charge = await server.deps.db
      .selectFrom('sandbox_charges')
      .selectAll()
      .where('idempotency_key', '=', transfer.id)
      .executeTakeFirstOrThrow();
    expect(charge).toMatchObject({ ref: transfer.processorRef, status: 'succeeded', kind: 'card_charge' });
    expect(BigInt(charge.amount)).toBe(transfer.amountMinor + transfer.feeMinor);
    const events = await server.deps.db.selectFrom('events').select('type').where('subject_id', '=', transfer.id).orderBy('seq').execute();
    expect(events.map((e) => e.type).sort()).toEqual(['transfer.completed', 'transfer.completed', 'transfer.received', 'transfer.sent']);
    const ledger = await server.deps.db
      .selectFrom('ledger_transfers')
      .select(['code', 'amount'])
      .where('operation_id', 'like', `%${transfer.id}%`)
      .execute();
    expect(ledger.map((l) => [l.code, BigInt(l.amount)]).sort()).toEqual(
      [
        ['fiat_fee', transfer.feeMinor],
        ['fiat_transfer', transfer.amountMinor],
      ].sort(),
    );
  });

  it('answers a replay racing its first request with that transfer, charged once', async () => {
    const a = await sender();
    const deps = parts((db) => oneStep(db));
    const standing = racing(deps, {});
    const first = await sendTransfer(standing, input(a, 20, 'one-step-race-1'));
    const replay = await sendTransfer(racing(deps, { earlier: null }), input(a, 20, 'one-step-race-1'));
    expect(replay.transfer).toEqual(first.transfer);
    expect(await chargesFor(server, [first.transfer.id])).toBe(1);
    const rows = await server.deps.db.selectFrom('fiat_transfers').select('id').where('sender_account_id', '=', a.id).execute();
    expect(rows).toEqual([{ id: first.transfer.id }]);
  });

  it('checks a keyed send beyond its limits for its key apart, and writes its neighbour in the same batch', async () => {
    const a = await sender();
    const b = await sender();
    const reports: BatchReport[] = [];
    // A batch starts when its second member arrives, so the two requests below share one.
    const pair = { maxBatch: 2, maxWaitMs: 5_000, concurrency: 1, maxQueued: 10, onBatch: (r: BatchReport) => reports.push(r) };
    const deps = parts((db) => oneStep(db, pair));
    const first = await sendTransfer(
      racing(
        parts((db) => oneStep(db)),
        {},
      ),
      input(a, 900, 'one-step-limit-1'),
    );
    const replayed = racing(deps, { earlier: null });
    const [replay, other] = await Promise.all([
      sendTransfer(replayed, input(a, 900, 'one-step-limit-1')),
      sendTransfer(replayed, input(b, 5, null)),
    ]);
    expect(replay.transfer).toEqual(first.transfer);
    expect(other.transfer.status).toBe('completed');
    expect(reports[0]).toEqual({ size: 2, ending: 'committed' });
    expect(await chargesFor(server, [first.transfer.id])).toBe(1);
    // Without a key the same transfer again is beyond the limit, and refused in the batch.
    expect(
      await codeOf(
        sendTransfer(
          racing(
            parts((db) => oneStep(db)),
            {},
          ),
          input(a, 900, null),
        ),
      ),
    ).toBe('limit_exceeded');
  });

  it('refuses a sender frozen after its standing was read, recording nothing for it, and writes its neighbour', async () => {
    const a = await sender();
    const b = await sender();
    const reports: BatchReport[] = [];
    const pair = { maxBatch: 2, maxWaitMs: 5_000, concurrency: 1, maxQueued: 10, onBatch: (r: BatchReport) => reports.push(r) };
    const deps = racing(
      parts((db) => oneStep(db, pair)),
      { freeze: null },
    );
    const at = server.deps.clock.now();
    await server.deps.db
      .transaction()
      .execute((trx) =>
        freezeAccount(trx, { accountId: a.id, scope: 'all', by: { operator: 'alice', requestId: 'req-1' }, note: 'fraud report', at }),
      );
    const [refused, other] = await Promise.all([
      codeOf(sendTransfer(deps, input(a, 7, 'one-step-frozen-1'))),
      sendTransfer(deps, input(b, 7, null)),
    ]);
    expect(refused).toBe('account_frozen');
    expect(other.transfer.status).toBe('completed');
    expect(reports[0]).toEqual({ size: 2, ending: 'committed' });
    const rows = await server.deps.db.selectFrom('fiat_transfers').select('id').where('sender_account_id', '=', a.id).execute();
    expect(rows).toEqual([]);
  });
});
