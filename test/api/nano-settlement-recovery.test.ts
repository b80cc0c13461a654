// Settlements that outlive their request. With the embedded chain's automatic mining switched off,
// a relay is sent but not mined within the request's wait: the request answers 402 without
// serving, the payment stays 'settling', and once the chain has mined it the reconciliation job
// posts the revenue exactly once. Claims whose authorization expired unused are failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, http } from 'viem';
import { sql } from 'kysely';
import { reconcileX402Payments } from '../../src/nano/reconcile-payments.js';
import { claimAuthorization } from '../../src/nano/x402-payments-repository.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { fundedPayer, handMadeV1Header, payToOf, QUOTE_PRICE, signAuthorization, usdcOf, waitMined, x402Books } from '../helpers/nano.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function anvil() {
  return createTestClient({ mode: 'anvil', transport: http(server.deps.chain.rpcUrl) });
}

/** Makes the settling payments look older than the job's minimum age. */
async function age(): Promise<void> {
  await sql`update x402_payments set created_at = created_at - interval '5 minutes' where status = 'settling'`.execute(server.deps.db);
}

describe('a relay not mined within the request', () => {
  it('answers 402 without serving, then the job settles and counts it once the chain mines it', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE, { validBefore: BigInt(Math.floor(Date.now() / 1000) + 300) });
    const before = { payer: await usdcOf(server, payer.address), books: await x402Books(server) };
    await anvil().setAutomine(false);
    let response;
    try {
      response = await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } });
    } finally {
      await anvil().setAutomine(true);
    }
    expect(response.status).toBe(402);
    expect(response.body.error).toBe('unexpected_settle_error');
    expect(response.body.fee).toBeUndefined();
    const pending = await server.deps.db.selectFrom('x402_payments').selectAll().where('status', '=', 'settling').executeTakeFirstOrThrow();
    expect(pending.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await x402Books(server)).revenue).toBe(before.books.revenue);

    await anvil().mine({ blocks: 1 });
    await waitMined(server, pending.tx_hash as `0x${string}`);
    expect(await usdcOf(server, payer.address)).toBe(before.payer - QUOTE_PRICE);

    // Too young for the job: the request that made it might still be waiting.
    expect(await reconcileX402Payments(server.deps, 10)).toBe(0);
    await age();
    expect(await reconcileX402Payments(server.deps, 10)).toBe(1);
    expect(await reconcileX402Payments(server.deps, 10)).toBe(0);
    const after = await x402Books(server);
    expect(after.settled).toBe(before.books.settled + 1);
    expect(after.settling).toBe(0);
    expect(after.revenue).toBe(before.books.revenue + QUOTE_PRICE);

    // The same header again is a replay, not a second payment.
    const replay = await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } });
    expect(replay.status).toBe(402);
    expect(replay.body.error).toBe('duplicate_settlement');
    expect(await usdcOf(server, payer.address)).toBe(before.payer - QUOTE_PRICE);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  }, 40_000);
});

describe('the reconciliation job', () => {
  it('settles a claim whose authorization was used on chain by anyone, and fails one that expired unused', async () => {
    const payer = await fundedPayer(server);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const used = await signAuthorization(server, payer, QUOTE_PRICE);
    const expired = await signAuthorization(server, payer, QUOTE_PRICE, { validAfter: 0n, validBefore: now - 1n });
    const claimedAt = new Date(Date.now() - 10 * 60_000);
    for (const [id, auth] of [
      ['x402_used', used],
      ['x402_expired', expired],
    ] as const) {
      expect(
        await claimAuthorization(server.deps.db, {
          id,
          endpoint: 'GET /nano/quote',
          amountMinor: QUOTE_PRICE,
          protocolVersion: 1,
          payer: payer.address,
          nonce: auth.authorization.nonce,
          validBefore: BigInt(auth.authorization.validBefore),
          payTo: payToOf(server),
          now: claimedAt,
        }),
      ).toBe(true);
    }
    const owner = server.deps.wallets.sandboxTokenOwner;
    const hash = await server.deps.chain.chain.relayTransferWithAuthorization({
      token: server.deps.chain.tokens.USDC,
      relayer: owner,
      authorization: {
        from: payer.address,
        to: used.authorization.to,
        value: QUOTE_PRICE,
        validAfter: BigInt(used.authorization.validAfter),
        validBefore: BigInt(used.authorization.validBefore),
        nonce: used.authorization.nonce,
        signature: used.signature,
      },
      nonce: await server.deps.chain.chain.getNonce({ address: owner.address, blockTag: 'pending' }),
    });
    await waitMined(server, hash);
    const books = await x402Books(server);

    // A third claim whose request died before relaying anything, for an authorization that never expires.
    const forever = await signAuthorization(server, payer, QUOTE_PRICE, { validAfter: 0n, validBefore: 2n ** 256n - 1n });
    expect(
      await claimAuthorization(server.deps.db, {
        id: 'x402_never_sent',
        endpoint: 'GET /nano/quote',
        amountMinor: QUOTE_PRICE,
        protocolVersion: 2,
        payer: payer.address,
        nonce: forever.authorization.nonce,
        validBefore: 2n ** 256n - 1n,
        payTo: payToOf(server),
        now: claimedAt,
      }),
    ).toBe(true);

    expect(await reconcileX402Payments(server.deps, 10)).toBe(3);
    const rows = await server.deps.db
      .selectFrom('x402_payments')
      .select(['id', 'status', 'failure_reason'])
      .where('id', 'in', ['x402_used', 'x402_expired', 'x402_never_sent'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'x402_expired', status: 'failed', failure_reason: 'expired_unsettled' },
      { id: 'x402_never_sent', status: 'failed', failure_reason: 'not_sent' },
      { id: 'x402_used', status: 'settled', failure_reason: null },
    ]);
    const after = await x402Books(server);
    expect(after.revenue).toBe(books.revenue + QUOTE_PRICE);
    expect(await reconcileX402Payments(server.deps, 10)).toBe(0);
    expect((await x402Books(server)).revenue).toBe(books.revenue + QUOTE_PRICE);
  });
});
