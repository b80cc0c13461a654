// A transfer intent with an Idempotency-Key alone in its group commit (transfer-intent-batch.ts,
// decision 0060) is written as one without a key is, in as many statements; when its key is taken,
// or its limits refuse it, nothing of that batch is written and the request records its intent in a
// transaction of its own, so that a replay racing its first request (past the standing's read of
// the key) is answered that transfer, not a refusal its own first request's volume caused. Beside
// other members, a keyed member that its limits refuse does the same (decision 0062).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createGroupCommit, type BatchReport } from '../../src/ledger/group-commit.js';
import { createIntentBatchWriter, IntentKeyTaken, intentMember, type TransferIntents } from '../../src/fiat/transfer-intent-batch.js';
import { sendTransfer } from '../../src/fiat/fiat-transfer-service.js';
import { coalescedStandings } from '../../src/fiat/transfer-standing.js';
import { insertTransferIntent } from '../../src/fiat/fiat-transfers-repository.js';
import type { FiatTransfer } from '../../src/fiat/fiat-transfer.js';
import { newId } from '../../src/platform/ids.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { cardSender, cardSendInput, chargesFor } from '../helpers/fiat.js';
import { statementCounter } from '../helpers/statement-counter.js';

let server: TestServer;
let recipient: TestUser;
const counter = statementCounter();
/** Intents in a group commit over a counting handle. */
let intents: TransferIntents;

beforeAll(async () => {
  // The default limits: a new account may send USD 1,000.00 a day.
  server = await startTestServer({ LIMITS_FILE: '' });
  recipient = await registerUser(server);
  const options = { maxBatch: 8, maxWaitMs: 1, concurrency: 1, maxQueued: 100 };
  intents = createGroupCommit(counter.db(server.deps.db), createIntentBatchWriter({ limits: server.deps.limits }), options);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

const sender = () => cardSender(server);

async function recipientId(): Promise<number> {
  return (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', recipient.handle).executeTakeFirstOrThrow()).id;
}

function intentOf(senderAccountId: number, recipientAccountId: number, idempotencyKey: string | null): FiatTransfer {
  return {
    id: newId('tr'),
    senderAccountId,
    recipientAccountId,
    currency: 'USD',
    amountMinor: 500n,
    feeMinor: 13n,
    paymentMethod: 'instant',
    status: 'processing',
    note: null,
    instrumentRef: 'pm_test',
    processorRef: null,
    failureCode: null,
    idempotencyKey,
    createdAt: server.deps.clock.now(),
    settlesAt: null,
    completedAt: null,
  };
}

const volumeOf = (accountId: number) =>
  server.deps.db
    .selectFrom('limit_volume')
    .select(['span', 'starts_at', 'volume'])
    .where('account_id', '=', accountId)
    .orderBy('span')
    .execute();

describe('a keyed intent alone in its group commit', () => {
  it('costs the statements of an intent without a key', async () => {
    const { id } = await sender();
    const to = await recipientId();
    const unkeyed = await counter.during(() => intents.run(intentMember(intentOf(id, to, null))));
    const keyed = await counter.during(() => intents.run(intentMember(intentOf(id, to, 'batch-alone-1'))));
    expect(keyed).toBe(unkeyed);
    const rows = await server.deps.db.selectFrom('fiat_transfers').select('idempotency_key').where('sender_account_id', '=', id).execute();
    expect(rows.map((r) => r.idempotency_key).sort()).toEqual(['batch-alone-1', null]);
  });

  it('whose key is taken fails with nothing written, not even its limit volume', async () => {
    const { id } = await sender();
    const to = await recipientId();
    const first = intentOf(id, to, 'batch-taken-1');
    expect(await insertTransferIntent(server.deps.db, first)).not.toBeNull();
    const volume = await volumeOf(id);
    await expect(intents.run(intentMember(intentOf(id, to, 'batch-taken-1')))).rejects.toBeInstanceOf(IntentKeyTaken);
    expect(await volumeOf(id)).toEqual(volume);
    const rows = await server.deps.db.selectFrom('fiat_transfers').select('id').where('sender_account_id', '=', id).execute();
    expect(rows).toEqual([{ id: first.id }]);
  });

  it('a replay racing its first request is answered that transfer, although the first used up the limit', async () => {
    const { user, id } = await sender();
    const { db, processor, clock, config, limits } = server.deps;
    const standings = coalescedStandings(db);
    const deps = { db, processor, clock, config, limits, transferIntents: intents, standings };
    // A new account may send USD 1,000.00 a day, fee included: the first uses most of it.
    const input = cardSendInput({ user, id }, recipient, 900, 'batch-race-1');
    const first = await sendTransfer(deps, input);
    expect(first.transfer.status).toBe('completed');
    // The replay read its standing before the first committed: it saw no transfer under its key.
    const racing = { ...deps, standings: async (key: Parameters<typeof standings>[0]) => ({ ...(await standings(key)), earlier: null }) };
    const replay = await sendTransfer(racing, input);
    expect(replay.transfer).toEqual(first.transfer);
    expect(await chargesFor(server, [first.transfer.id])).toBe(1);
    // Without a key the same transfer again is beyond the limit.
    await expect(sendTransfer(racing, { ...input, idempotencyKey: null })).rejects.toMatchObject({ code: 'limit_exceeded' });
  });
});

describe('a keyed intent beside others in its group commit', () => {
  it('refused by its limits is checked for its key alone, and its neighbours are written together', async () => {
    const a = await sender();
    const b = await sender();
    const { db, processor, clock, config, limits } = server.deps;
    const standings = coalescedStandings(db);
    const reports: BatchReport[] = [];
    // A batch starts when its second member arrives, so the two requests below share one.
    const pair = createGroupCommit(db, createIntentBatchWriter({ limits }), {
      maxBatch: 2,
      maxWaitMs: 5_000,
      concurrency: 1,
      maxQueued: 10,
      onBatch: (report) => reports.push(report),
    });
    const deps = { db, processor, clock, config, limits, transferIntents: intents, standings };
    const input = cardSendInput(a, recipient, 900, 'batch-pair-1');
    const first = await sendTransfer(deps, input);
    expect(first.transfer.status).toBe('completed');
    // The replay read its standing before the first committed: it saw no transfer under its key.
    const racing = {
      ...deps,
      transferIntents: pair,
      standings: async (key: Parameters<typeof standings>[0]) => ({ ...(await standings(key)), earlier: null }),
    };
    const neighbour = cardSendInput(b, recipient, 5, null);
    const [replay, other] = await Promise.all([sendTransfer(racing, input), sendTransfer(racing, neighbour)]);
    expect(replay.transfer).toEqual(first.transfer);
    expect(other.transfer.status).toBe('completed');
    expect(reports[0]).toEqual({ size: 2, ending: 'committed' });
    expect(await chargesFor(server, [first.transfer.id])).toBe(1);
    const rows = await db.selectFrom('fiat_transfers').select('id').where('sender_account_id', '=', a.id).execute();
    expect(rows).toEqual([{ id: first.transfer.id }]);
  });
});
