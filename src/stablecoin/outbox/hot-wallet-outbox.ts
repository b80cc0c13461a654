// The hot wallet outbox: the only way peerpay sends a transaction from its hot wallet. Every send
// gets the next nonce from the database, is signed, and is recorded (hash, raw bytes, nonce) and
// committed BEFORE it is broadcast. So nonces never collide, also across processes, and after a
// crash the recorded transaction is broadcast again (by the caller's retry or by the outbox job,
// outbox-processing.ts), byte for byte the same: a transfer is never signed, nor sent, twice.
//
// Idempotent per (purpose, referenceId): a second call returns the existing entry, re-broadcasting
// it while it is not final, and never signs again.
import { keccak256, type Address, type Hash } from 'viem';
import { sendThroughCircle } from './circle-outbox.js';
import type { SignedTransaction } from '../../adapters/chain/chain-adapter.js';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { Token } from '../../money/assets.js';
import { assert } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { chainErrorText } from './chain-error-text.js';
import { isFinal, type AnyOutboxRecord, type OutboxEntry, type OutboxPurpose, type OutboxRecord } from './outbox-entry.js';
import { findRecord, insertSigned, lockNextNonce, markBroadcast, recordBroadcastError, setNextNonce } from './outbox-repository.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Clock } from '../../platform/clock.js';

export type { OutboxEntry, OutboxPurpose, OutboxStatus } from './outbox-entry.js';

export type OutboxDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock };

/**
 * A token transfer from the treasury (the hot wallet's role): what withdrawals and cold transfers
 * send. Self: signed by the hot wallet key and sent through this outbox. Circle: a transfer from the
 * treasury wallet through the Circle outbox (circle-outbox.ts). Either way recorded before it is
 * sent, once per (purpose, reference); the hash is null while Circle has not completed it.
 */
export async function sendTokenFromTreasury(
  deps: OutboxDeps,
  send: Omit<HotWalletSend, 'sign'> & { token: Token; to: Address; amountMinor: bigint },
): Promise<{ outboxId: string; txHash: Hash | null }> {
  const { token, to, amountMinor, ...entry } = send;
  if (deps.wallets.provider === 'circle') {
    const from = { walletId: deps.wallets.circle.treasuryWalletId, address: deps.wallets.hotWallet.address };
    return sendThroughCircle({ ...deps, wallets: deps.wallets }, { ...entry, from, token, to, amountMinor });
  }
  return sendFromHotWallet(deps, { ...entry, sign: hotWalletTokenTransfer(deps, { token, to, amountMinor }) });
}

/** The `sign` of a token transfer from the hot wallet (self). */
function hotWalletTokenTransfer(
  deps: { chain: ChainConnection; wallets: WalletProvider },
  transfer: { token: Token; to: `0x${string}`; amountMinor: bigint },
): (nonce: number) => Promise<SignedTransaction> {
  return (nonce) =>
    deps.chain.chain.signTokenTransfer({
      token: deps.chain.tokens[transfer.token],
      sender: deps.wallets.relayer,
      to: transfer.to,
      amount: transfer.amountMinor,
      nonce,
    });
}

export interface HotWalletSend {
  purpose: OutboxPurpose;
  /** What the transaction is for: a deposit's or a withdrawal's id. At most 200 characters. */
  referenceId: string;
  /** Signs the transaction with this nonce, from the hot wallet: local signing plus at most a gas estimate. */
  sign: (nonce: number) => Promise<SignedTransaction>;
  /**
   * Optional: runs inside the locked transaction before a nonce is given out; throwing sends
   * nothing. Withdrawals use it to lock their row and check it still wants sending, so that a
   * withdrawal that was given up (refunded) can never be signed afterwards.
   */
  precondition?: (trx: Trx) => Promise<void>;
}

/** Bounds sign(): it holds the nonce row lock (see below). */
const SIGN_TIMEOUT_MS = 30_000;

export async function sendFromHotWallet(deps: OutboxDeps, send: HotWalletSend): Promise<{ outboxId: string; txHash: Hash }> {
  assert(send.referenceId.length > 0 && send.referenceId.length <= 200, 'an outbox reference is 1 to 200 characters');
  const earlier = await findRecord(deps.db, send);
  if (earlier) return resend(deps, earlier);

  const sender = deps.wallets.relayer.address;
  // Read outside the transaction (a network call). It matters only when the chain is ahead of our
  // counter: at first use, or if something outside peerpay sent from the hot wallet. Taking the
  // larger of the two never reuses a nonce the chain has seen and never leaves a gap of our own.
  const chainPendingNonce = await deps.chain.chain.getNonce({ address: sender, blockTag: 'pending' });

  // Why sign() runs inside this transaction, with the nonce row locked: the nonce, the signature
  // and the record must commit together. Were the nonce taken in one transaction and the record
  // written in another, a sign() that fails (a revert found by the gas estimate, a node timeout)
  // or a crash in between would leave a nonce with no transaction, and every later transaction
  // of the hot wallet would wait behind that gap for ever. The cost is that one gas estimate (a
  // local node call, bounded by SIGN_TIMEOUT_MS) happens under the lock of one row that only hot
  // wallet sends use — and those are serialised by their nonces anyway. Broadcasting, the slow
  // and retried part, happens after the commit, with no transaction open.
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const nextNonce = await lockNextNonce(trx, sender, chainPendingNonce);
    // A concurrent call for the same reference may have committed while this one waited.
    const raced = await findRecord(trx, send);
    if (raced) return { existing: raced, created: null };
    await send.precondition?.(trx);
    const nonce = Math.max(nextNonce, chainPendingNonce);
    const signed = await withTimeout(send.sign(nonce), SIGN_TIMEOUT_MS);
    // Before writing: the transaction is the hot wallet's, with this nonce, and its hash is its bytes'.
    assert(signed.nonce === nonce, 'the transaction carries the nonce it was given');
    assert(signed.from.toLowerCase() === sender.toLowerCase(), 'the hot wallet signed the transaction');
    assert(keccak256(signed.serialized) === signed.hash.toLowerCase(), 'the hash names the signed bytes');
    const record = await insertSigned(trx, {
      id: newId('obx'),
      purpose: send.purpose,
      referenceId: send.referenceId,
      sender,
      nonce,
      txHash: signed.hash,
      rawTx: signed.serialized,
      now: deps.clock.now(),
    });
    await setNextNonce(trx, sender, nonce + 1);
    return { existing: null, created: record };
  });
  if (outcome.existing) return resend(deps, outcome.existing);
  await broadcastRecord(deps, outcome.created);
  return { outboxId: outcome.created.id, txHash: outcome.created.txHash };
}

export async function findOutboxEntry(
  db: Db | Trx,
  ref: { purpose: OutboxPurpose; referenceId: string },
): Promise<OutboxEntry | undefined> {
  const record = await findRecord(db, ref);
  return record ? { id: record.id, status: record.status, txHash: record.txHash, blockNumber: record.blockNumber } : undefined;
}

async function resend(deps: OutboxDeps, record: AnyOutboxRecord): Promise<{ outboxId: string; txHash: Hash }> {
  assert(record.provider === 'self', 'a transaction peerpay signs is never recorded as a Circle transfer');
  if (!isFinal(record.status)) await broadcastRecord(deps, record);
  return { outboxId: record.id, txHash: record.txHash };
}

/**
 * Sends the recorded bytes. A failure is recorded, not thrown: the transaction is committed and
 * the outbox job broadcasts it again, so the caller's send has happened as far as it can tell.
 */
export async function broadcastRecord(deps: Pick<OutboxDeps, 'db' | 'chain' | 'clock'>, record: OutboxRecord): Promise<boolean> {
  try {
    await deps.chain.chain.broadcast({ hash: record.txHash, serialized: record.rawTx, from: record.sender, nonce: record.nonce });
  } catch (error) {
    await recordBroadcastError(deps.db, { id: record.id, at: deps.clock.now(), error: chainErrorText(error) });
    return false;
  }
  await markBroadcast(deps.db, { id: record.id, at: deps.clock.now() });
  return true;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`signing took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
