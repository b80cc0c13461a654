// The hot wallet outbox against a running service with its embedded chain: every send gets its own
// nonce, is recorded before it is broadcast, is sent once however often it is asked for, and a
// recorded transaction that was never broadcast (a crash) is sent by the job, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { ChainRevertError, type SignedTransaction } from '../../src/adapters/chain/chain-adapter.js';
import type { Deps } from '../../src/deps.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { findOutboxEntry, sendFromHotWallet } from '../../src/stablecoin/outbox/hot-wallet-outbox.js';
import { createHotWalletOutbox } from '../../src/stablecoin/outbox/outbox-service.js';
import { insertSigned, lockNextNonce, setNextNonce } from '../../src/stablecoin/outbox/outbox-repository.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { runsIf, POSTGRES_ONLY } from '../helpers/runs-if.js';
import { selfWallets } from '../helpers/self-wallets.js';

const ON_POSTGRES = runsIf(process.env.DATABASE_URL, POSTGRES_ONLY);

let server: TestServer;
let deps: Deps;
let usdc: Address;

beforeAll(async () => {
  server = await startTestServer();
  deps = server.deps;
  usdc = deps.chain.tokens.USDC;
  await deps.chain.sandboxChain!.mint({
    token: usdc,
    minter: deps.wallets.sandboxTokenOwner,
    to: deps.wallets.hotWallet.address,
    amount: 1_000_000_000n,
  });
});
afterAll(async () => {
  await server?.close();
});

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const balanceOf = (holder: Address) => deps.chain.chain.getTokenBalance({ token: usdc, holder });
let refCounter = 0;
const newRef = () => `test-${Date.now()}-${++refCounter}`;

/** A sign() that sends `amount` USDC to `to` and counts its calls. */
function transferSigner(to: Address, amount: bigint, d: Pick<Deps, 'chain' | 'wallets'> = deps) {
  const calls: number[] = [];
  return {
    calls,
    sign: (nonce: number): Promise<SignedTransaction> => {
      calls.push(nonce);
      return d.chain.chain.signTokenTransfer({ token: usdc, sender: selfWallets(d.wallets).hotWallet, to, amount, nonce });
    },
  };
}

/**
 * Outbox rounds until no entry is waiting (signed or broadcast). A broadcast that timed out on a
 * loaded machine waits for its retry pause; the sandbox clock is moved past it.
 */
async function drainOutbox(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    await createHotWalletOutbox(deps).reconcile(50);
    const open = await deps.db.selectFrom('hot_wallet_outbox').select('id').where('status', 'in', ['signed', 'broadcast']).execute();
    if (open.length === 0) return;
    await deps.sandboxClock!.advance(10_000n);
  }
  throw new Error('hot wallet outbox did not drain in 20 rounds');
}

async function chainNonce(): Promise<number> {
  return deps.chain.chain.getNonce({ address: deps.wallets.hotWallet.address, blockTag: 'latest' });
}

/** The hot wallet's nonce once every earlier entry is mined. */
async function settledNonce(): Promise<number> {
  await drainOutbox();
  return chainNonce();
}

describe('sendFromHotWallet', () => {
  it('records, broadcasts, and the job confirms: the recipient holds exactly the amount', async () => {
    const to = freshAddress();
    const signer = transferSigner(to, 4_925_500n);
    const ref = newRef();
    const sent = await sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: signer.sign });
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref }))?.status).toBe('broadcast');
    await drainOutbox();
    const entry = await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref });
    expect(entry).toMatchObject({ id: sent.outboxId, status: 'confirmed', txHash: sent.txHash });
    expect(entry?.blockNumber).toBeTypeOf('bigint');
    expect(await balanceOf(to)).toBe(4_925_500n);
    expect(signer.calls).toHaveLength(1);
  });

  it('is idempotent per (purpose, referenceId): repeats and concurrent calls sign once and send once', async () => {
    const to = freshAddress();
    const signer = transferSigner(to, 1_000_000n);
    const ref = newRef();
    const results = await Promise.all(
      [...Array(6)].map(() => sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: signer.sign })),
    );
    expect(new Set(results.map((r) => r.outboxId)).size).toBe(1);
    expect(new Set(results.map((r) => r.txHash)).size).toBe(1);
    expect(signer.calls).toHaveLength(1);
    await drainOutbox();
    const again = await sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: signer.sign });
    expect(again).toEqual(results[0]);
    expect(signer.calls).toHaveLength(1);
    expect(await balanceOf(to)).toBe(1_000_000n);
    // The same reference under the other purpose is another entry.
    const sweepSigner = transferSigner(to, 1n);
    const sweep = await sendFromHotWallet(deps, { purpose: 'sweep', referenceId: ref, sign: sweepSigner.sign });
    expect(sweep.outboxId).not.toBe(results[0]!.outboxId);
  });

  it('gives concurrent sends distinct, consecutive nonces, and every one is mined', async () => {
    const before = await settledNonce();
    const sends = [...Array(12)].map(() => ({ to: freshAddress(), ref: newRef() }));
    const results = await Promise.all(
      sends.map(({ to, ref }, i) =>
        sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: transferSigner(to, BigInt(1000 + i)).sign }),
      ),
    );
    await drainOutbox();
    const rows = await deps.db
      .selectFrom('hot_wallet_outbox')
      .select(['nonce', 'status', 'tx_hash'])
      .where(
        'reference_id',
        'in',
        sends.map((s) => s.ref),
      )
      .execute();
    const nonces = rows.map((r) => Number(r.nonce)).sort((a, b) => a - b);
    expect(nonces).toEqual([...Array(12).keys()].map((i) => before + i));
    expect(rows.every((r) => r.status === 'confirmed')).toBe(true);
    expect(new Set(results.map((r) => r.txHash)).size).toBe(12);
    for (const [i, { to }] of sends.entries()) expect(await balanceOf(to)).toBe(BigInt(1000 + i));
    expect(await chainNonce()).toBe(before + 12);
  });

  it('a sign() that fails records nothing and uses up no nonce', async () => {
    const before = await settledNonce();
    const ref = newRef();
    const tooMuch = (await balanceOf(deps.wallets.hotWallet.address)) + 1n;
    await expect(
      sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: transferSigner(freshAddress(), tooMuch).sign }),
    ).rejects.toBeInstanceOf(ChainRevertError);
    expect(await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref })).toBeUndefined();
    const next = newRef();
    await sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: next, sign: transferSigner(freshAddress(), 5n).sign });
    const row = await deps.db.selectFrom('hot_wallet_outbox').select('nonce').where('reference_id', '=', next).executeTakeFirstOrThrow();
    expect(Number(row.nonce)).toBe(before);
    await drainOutbox();
  });

  it('a precondition that throws sends nothing', async () => {
    const ref = newRef();
    const signer = transferSigner(freshAddress(), 5n);
    await expect(
      sendFromHotWallet(deps, {
        purpose: 'withdrawal',
        referenceId: ref,
        sign: signer.sign,
        precondition: async () => {
          throw new Error('no longer wanted');
        },
      }),
    ).rejects.toThrow('no longer wanted');
    expect(signer.calls).toEqual([]);
    expect(await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref })).toBeUndefined();
  });
});

describe('crash safety', () => {
  it('a transaction recorded as signed but never broadcast is sent by the job once, with the same bytes', async () => {
    const to = freshAddress();
    const ref = newRef();
    // What sendFromHotWallet commits before broadcasting, and then the process dies.
    const recorded = await deps.db.transaction().execute(async (trx) => {
      const sender = deps.wallets.hotWallet.address;
      const nonce = Math.max(await lockNextNonce(trx, sender, await chainNonce()), await chainNonce());
      const signed = await deps.chain.chain.signTokenTransfer({
        token: usdc,
        sender: selfWallets(deps.wallets).hotWallet,
        to,
        amount: 777n,
        nonce,
      });
      const record = await insertSigned(trx, {
        id: `obx_crash_${refCounter}`,
        purpose: 'withdrawal',
        referenceId: ref,
        sender,
        nonce,
        txHash: signed.hash,
        rawTx: signed.serialized,
        now: deps.clock.now(),
      });
      await setNextNonce(trx, sender, nonce + 1);
      return record;
    });
    expect(await deps.chain.chain.getTransactionOutcome(recorded.txHash)).toBeNull();
    expect(await balanceOf(to)).toBe(0n);

    // The job's rounds send the recorded bytes: the recorded hash is what is mined. Rounds, not one:
    // on a loaded machine the first broadcast can time out and is tried again after its pause.
    await drainOutbox();
    const outcome = await deps.chain.chain.getTransactionOutcome(recorded.txHash);
    expect(outcome?.status).toBe('success');
    expect(await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref })).toMatchObject({
      status: 'confirmed',
      txHash: recorded.txHash,
    });
    expect(await balanceOf(to)).toBe(777n);

    // A retry of the send finds the entry and signs nothing.
    const signer = transferSigner(to, 777n);
    expect(await sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: signer.sign })).toEqual({
      outboxId: recorded.id,
      txHash: recorded.txHash,
    });
    expect(signer.calls).toEqual([]);
    await drainOutbox();
    expect(await balanceOf(to)).toBe(777n);
  });

  it('a broadcast that fails leaves the entry signed; the job sends the same transaction later', async () => {
    const to = freshAddress();
    const ref = newRef();
    let failures = 0;
    const failingChain = {
      ...deps.chain.chain,
      broadcast: async () => {
        failures++;
        throw new Error('connection reset');
      },
    };
    const failingDeps = { ...deps, chain: { ...deps.chain, chain: failingChain } };
    const signer = transferSigner(to, 4242n);
    const sent = await sendFromHotWallet(failingDeps, { purpose: 'withdrawal', referenceId: ref, sign: signer.sign });
    expect(failures).toBe(1);
    const row = await deps.db.selectFrom('hot_wallet_outbox').selectAll().where('id', '=', sent.outboxId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'signed', last_error: 'connection reset', broadcast_attempts: 1 });
    expect(await deps.chain.chain.getTransactionOutcome(sent.txHash)).toBeNull();

    // Retried after a pause, not in a tight loop: the sandbox clock moves past it.
    await createHotWalletOutbox(failingDeps).reconcile(50);
    expect(failures).toBe(1);
    await deps.sandboxClock!.advance(10_000n);
    await drainOutbox();
    expect(await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref })).toMatchObject({
      status: 'confirmed',
      txHash: sent.txHash,
    });
    expect(await balanceOf(to)).toBe(4242n);
    expect(signer.calls).toHaveLength(1);
  });

  it('an entry whose transaction reverts on chain is recorded as reverted', async () => {
    // Two sends of the whole balance, each signed against a chain where the other is not mined
    // yet: both pass simulation, the second reverts when mined.
    const hot = deps.wallets.hotWallet.address;
    const all = await balanceOf(hot);
    const refs = [newRef(), newRef()];
    const failingChain = { ...deps.chain.chain, broadcast: async () => Promise.reject(new Error('held back')) };
    const heldDeps = { ...deps, chain: { ...deps.chain, chain: failingChain } };
    for (const ref of refs)
      await sendFromHotWallet(heldDeps, { purpose: 'withdrawal', referenceId: ref, sign: transferSigner(freshAddress(), all).sign });
    await deps.sandboxClock!.advance(10_000n);
    await drainOutbox();
    const entries = await Promise.all(refs.map((referenceId) => findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId })));
    expect(entries.map((e) => e?.status)).toEqual(['confirmed', 'reverted']);
    await deps.chain.sandboxChain!.mint({ token: usdc, minter: deps.wallets.sandboxTokenOwner, to: hot, amount: 1_000_000_000n });
  });
});

/**
 * A database handle on which the first statement containing `match` runs and commits, and its
 * answer is then lost as when the connection drops right after the commit.
 */
function losingFirstAnswer(match: string): { plugin: KyselyPlugin; lost: () => boolean } {
  const doomed = new WeakSet<object>();
  let armed = true;
  let lost = false;
  return {
    lost: () => lost,
    plugin: {
      transformQuery({ node, queryId }) {
        if (armed && node.kind === 'RawNode' && node.sqlFragments.join('?').includes(match)) {
          armed = false;
          doomed.add(queryId);
        }
        return node;
      },
      async transformResult({ result, queryId }) {
        if (!doomed.has(queryId)) return result;
        lost = true;
        throw new Error('Connection terminated unexpectedly');
      },
    },
  };
}

describe('a round cut off from the database', () => {
  it('gives back, at its next round, the leases whose answer it lost: their entries do not wait out the lease', async () => {
    const to = freshAddress();
    const ref = newRef();
    const sent = await sendFromHotWallet(deps, { purpose: 'withdrawal', referenceId: ref, sign: transferSigner(to, 2_000_000n).sign });
    const losing = losingFirstAnswer('update hot_wallet_outbox set locked_until');
    const cut = createHotWalletOutbox({ ...deps, db: deps.db.withPlugin(losing.plugin) });
    await expect(cut.reconcile(50)).rejects.toThrow(/Connection terminated/);
    expect(losing.lost()).toBe(true);
    // The lease was stored: on its own the entry would be skipped for the next minute.
    const leased = await sql<{ locked_until: Date | null }>`select locked_until from hot_wallet_outbox where id = ${sent.outboxId}`.execute(
      deps.db,
    );
    expect(leased.rows[0]!.locked_until!.getTime()).toBeGreaterThan(deps.clock.now().getTime());
    await cut.reconcile(50);
    expect(await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: ref })).toMatchObject({
      status: 'confirmed',
      txHash: sent.txHash,
    });
    expect(await balanceOf(to)).toBe(2_000_000n);
  });
});

describe('several processes', () => {
  it.runIf(ON_POSTGRES)('two database pools on one PostgreSQL database share the nonce sequence', async () => {
    const url = (deps.database as Database & { url?: string }).url;
    expect(url).toBeTruthy();
    const other: Database = await openDatabase({ url, poolSize: 5 });
    try {
      const otherDeps = { ...deps, db: other.db };
      const before = await settledNonce();
      const sends = [...Array(10)].map((_, i) => ({ to: freshAddress(), ref: newRef(), via: i % 2 ? otherDeps : deps }));
      await Promise.all(
        sends.map(({ to, ref, via }) => sendFromHotWallet(via, { purpose: 'sweep', referenceId: ref, sign: transferSigner(to, 3n).sign })),
      );
      await drainOutbox();
      const nonces = await sql<{
        nonce: string;
      }>`select nonce::text from hot_wallet_outbox where reference_id in (${sql.join(sends.map((s) => s.ref))}) order by nonce`.execute(
        deps.db,
      );
      expect(nonces.rows.map((r) => Number(r.nonce))).toEqual([...Array(10).keys()].map((i) => before + i));
      for (const { to } of sends) expect(await balanceOf(to)).toBe(3n);
    } finally {
      await other.close();
    }
  });
});
