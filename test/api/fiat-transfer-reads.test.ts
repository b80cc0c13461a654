// What POST /transfers reads before recording anything (src/fiat/transfer-standing.ts, decision
// 0060): the sender's standing, the recipient and the transfer already made under the request's
// Idempotency-Key come back in one statement. Driven through the fiat transfers service, below
// the HTTP idempotency layer, so that the service's own look-up of the key is what answers: a
// retry whose stored answer was lost, a key reused with other terms, another sender's key,
// concurrent requests with one key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createAccountLookups } from '../../src/accounts/account-lookups.js';
import { createFiatTransfers, type FiatTransfers } from '../../src/fiat/fiat-transfers.js';
import type { SendTransferInput } from '../../src/fiat/fiat-transfer-service.js';
import { AppError } from '../../src/platform/errors.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { chargesFor, moneySnapshot, setUp } from '../helpers/fiat.js';
import { statementCounter } from '../helpers/statement-counter.js';

let server: TestServer;
let sender: TestUser;
let recipient: TestUser;
let senderId: number;
const counter = statementCounter();
/**
 * The service over a counting handle (its account look-ups too), without group commits: each
 * transfer in transactions of its own.
 */
let counted: FiatTransfers;

beforeAll(async () => {
  server = await startTestServer();
  sender = await registerUser(server);
  recipient = await registerUser(server);
  await setUp(server, sender, '/agent/setup-link');
  senderId = await accountId(sender);
  const { clock, config, processor, limits } = server.deps;
  const db = counter.db(server.deps.db);
  counted = createFiatTransfers({ db, clock, config, processor, limits, accountLookups: createAccountLookups(db) });
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function accountId(user: TestUser): Promise<number> {
  return (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow()).id;
}

function input(key: string | null, terms: Partial<SendTransferInput> = {}, from = { id: 0, user: sender }): SendTransferInput {
  return {
    senderAccountId: from.id || senderId,
    senderHandle: from.user.handle,
    recipientHandle: recipient.handle,
    amount: 3.5,
    currency: 'USD',
    paymentMethod: 'instant',
    idempotencyKey: key,
    ...terms,
  };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe('what a fiat transfer reads before recording it', () => {
  it('a keyed transfer costs no statement more than one without a key, and a retry of it one statement', async () => {
    // The sender's standing, the recipient and the key's transfer, all read before the sender is
    // told it has no bank debit set up: one statement.
    let refusal = '';
    expect(
      await counter.during(async () => {
        refusal = await codeOf(counted.send(input('reads-ach-1', { paymentMethod: 'ach' })));
      }),
    ).toBe(1);
    expect(refusal).toBe('ach_setup_required');
    const unkeyed = await counter.during(() => counted.send(input(null)));
    let first: Awaited<ReturnType<FiatTransfers['send']>> | undefined;
    const keyed = await counter.during(async () => {
      first = await counted.send(input('reads-count-1'));
    });
    expect(keyed).toBe(unkeyed);
    expect(first!.transfer.status).toBe('completed');

    // The retry (its stored answer lost) is answered by the standing's statement alone.
    const before = await moneySnapshot(server);
    let retry: Awaited<ReturnType<FiatTransfers['send']>> | undefined;
    expect(
      await counter.during(async () => {
        retry = await counted.send(input('reads-count-1'));
      }),
    ).toBe(1);
    expect(retry).toEqual(first);
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('a key used again with other terms answers idempotency_key_reused and changes nothing', async () => {
    const key = 'reads-reused-1';
    const first = await server.deps.fiatTransfers.send(input(key));
    const before = await moneySnapshot(server);
    expect(await codeOf(server.deps.fiatTransfers.send(input(key, { amount: 4 })))).toBe('idempotency_key_reused');
    expect(await codeOf(server.deps.fiatTransfers.send(input(key, { paymentMethod: 'ach' })))).toBe('idempotency_key_reused');
    expect(await codeOf(server.deps.fiatTransfers.send(input(key, { currency: 'eur' })))).toBe('idempotency_key_reused');
    expect(await moneySnapshot(server)).toBe(before);
    // The same terms, the recipient's handle written another way, are the same transfer.
    const again = await server.deps.fiatTransfers.send(input(key, { recipientHandle: ` ${recipient.handle.toLowerCase()} ` }));
    expect(again.transfer).toEqual(first.transfer);
  });

  it("another sender's transfer under the same key is not this sender's", async () => {
    const key = 'reads-shared-1';
    const other = await registerUser(server);
    await setUp(server, other, '/agent/setup-link');
    const mine = await server.deps.fiatTransfers.send(input(key));
    const theirs = await server.deps.fiatTransfers.send(input(key, {}, { id: await accountId(other), user: other }));
    expect(theirs.transfer.id).not.toBe(mine.transfer.id);
    expect(theirs.transfer.senderAccountId).toBe(await accountId(other));
  });

  it('refuses an unknown recipient and the sender itself, keyed or not, recording nothing', async () => {
    const before = await moneySnapshot(server);
    expect(await codeOf(counted.send(input(null, { recipientHandle: 'PA-NOSUCH99' })))).toBe('recipient_not_found');
    expect(await codeOf(counted.send(input('reads-nobody-1', { recipientHandle: 'PA-NOSUCH99' })))).toBe('recipient_not_found');
    expect(await codeOf(counted.send(input('reads-self-1', { recipientHandle: sender.handle })))).toBe('self_transfer');
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('concurrent sends with one key make one transfer and one charge, and all answer it', async () => {
    const key = 'reads-concurrent-1';
    const answers = await Promise.all(Array.from({ length: 6 }, () => server.deps.fiatTransfers.send(input(key))));
    const rows = await server.deps.db
      .selectFrom('fiat_transfers')
      .select(['id', 'status'])
      .where('sender_account_id', '=', senderId)
      .where('idempotency_key', '=', key)
      .execute();
    expect(rows).toEqual([{ id: answers[0]!.transfer.id, status: 'completed' }]);
    for (const answer of answers) expect(answer.transfer.id).toBe(rows[0]!.id);
    expect(await chargesFor(server, [rows[0]!.id])).toBe(1);
  });
});
