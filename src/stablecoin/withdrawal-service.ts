// POST /stablecoin/withdraw: send USDC or EURC from the caller's balance to a Polygon address, the
// 1.49% fee deducted. Three steps, none holding a transaction across a chain call except the
// outbox's signing (see outbox/hot-wallet-outbox.ts):
//   1. record the withdrawal and reserve its gross in the ledger, in one transaction;
//   2. send `net` from the hot wallet through the outbox (recorded before it is broadcast);
//   3. later, the withdrawal job completes it (posts the reservation) once the outbox entry is
//      confirmed, or fails it (voids: gross refunded) if it reverted.
// The client's Idempotency-Key is the withdrawal's natural key, so a retry whose stored answer was
// lost finds the withdrawal (and its one transaction) instead of sending again.
import { ChainRevertError } from '../adapters/chain/chain-adapter.js';
import { formatMinorTrimmed } from '../money/amount.js';
import type { Trx } from '../db/transaction.js';
import { AppError, assert } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { accountFrozen, assertNotFrozen, frozenAmong, refuseIfFrozen } from '../compliance/freezes/freeze-checks.js';
import { chainErrorText } from './outbox/chain-error-text.js';
import { findOutboxEntry, sendTokenFromTreasury } from './outbox/hot-wallet-outbox.js';
import { priceOperation, tokenAmountOf, tokenOf, type Priced } from './stablecoin-amounts.js';
import type { Token } from '../money/assets.js';
import { limitVolumeOf, type Withdrawal } from './withdrawal.js';
import { withdrawalDestination } from './withdrawal-destination.js';
import { reserveWithdrawal, resolveWithdrawal } from './withdrawal-ledger.js';
import { recordWithdrawalEvent } from './stablecoin-events.js';
import {
  findWithdrawal,
  findWithdrawalByIdempotencyKey,
  finishWithdrawal,
  insertWithdrawal,
  lockWithdrawal,
  markWaiting,
  setTxHash,
} from './withdrawals-repository.js';
import { availableLiquidityMinor } from './treasury/hot-wallet-liquidity.js';
import { destinationSanctioned } from '../compliance/sanctions/sanctions-controls.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { SanctionsControls } from '../compliance/sanctions/sanctions-controls.js';
import type { SanctionsScreening } from '../compliance/sanctions/sanctions-screening.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface WithdrawInput {
  accountId: number;
  /** As the client sent it: a JSON number in major units, before the fee. */
  amount: number;
  currency: string;
  address: string | undefined;
  idempotencyKey: string | null;
}

export type WithdrawalDeps = {
  db: Db;
  chain: ChainConnection;
  wallets: WalletProvider;
  clock: Clock;
  config: Config;
  sanctions: SanctionsScreening;
  sanctionsControls: SanctionsControls;
};

export interface WithdrawalQuote {
  currency: Token;
  priced: Priced;
  /** Where it would go: the address given, or the saved default. */
  address: string;
}

/** What POST /stablecoin/withdraw would take, send and where, by its rules and refusals; nothing is recorded. */
export async function quoteWithdrawal(
  deps: {
    db: Db;
    chain: ChainConnection;
    wallets: WalletProvider;
    config: Config;
    sanctionsControls: SanctionsControls;
    limits: AccountLimits;
  },
  input: { accountId: number; amount: number | string; currency: string; address?: string | undefined },
): Promise<WithdrawalQuote> {
  await refuseIfFrozen(deps.db, input.accountId, 'other');
  const currency = tokenOf(input.currency);
  const priced = priceOperation(tokenAmountOf(input.amount, currency, deps.config.maxStablecoinOperationMajor), currency, 'withdrawal');
  const address = await withdrawalDestination(deps, { accountId: input.accountId, address: input.address });
  // Refused as the withdrawal would be, so that a client asks for no confirmation of a withdrawal
  // that cannot happen; a quote moves nothing and freezes nothing (decision 0037).
  await deps.sanctionsControls.refuseListedDestination({ accountId: input.accountId, address, use: 'withdrawal_quote' });
  await deps.limits.refuseBeyond({ accountId: input.accountId, currency, amountMinor: priced.amountMinor, what: 'withdrawal' });
  return { currency, priced, address };
}

export async function withdraw(deps: WithdrawalDeps & { limits: AccountLimits }, input: WithdrawInput): Promise<Withdrawal> {
  // Before anything else about the withdrawal (DESIGN §17); the check that counts is the one in
  // the transaction that reserves the money, below.
  await refuseIfFrozen(deps.db, input.accountId, 'other');
  const currency = tokenOf(input.currency);
  const priced = priceOperation(tokenAmountOf(input.amount, currency, deps.config.maxStablecoinOperationMajor), currency, 'withdrawal');
  const address = await withdrawalDestination(deps, { accountId: input.accountId, address: input.address });
  const request = { currency, grossMinor: priced.amountMinor, address: input.address === undefined ? null : address };

  if (input.idempotencyKey !== null) {
    const earlier = await findWithdrawalByIdempotencyKey(deps.db, input.accountId, input.idempotencyKey);
    if (earlier) return continueWithdrawal(deps, sameWithdrawalOrRefuse(earlier, request));
  }
  // Screened before anything is recorded: a listed address freezes the account (committed on its
  // own) and is refused with nothing reserved; an oracle that does not answer refuses with 503.
  await deps.sanctionsControls.refuseListedDestination({ accountId: input.accountId, address, use: 'withdrawal' });
  const intent: Withdrawal = {
    id: newId('wd'),
    accountId: input.accountId,
    currency,
    address,
    grossMinor: priced.amountMinor,
    feeMinor: priced.feeMinor,
    netMinor: priced.netMinor,
    status: 'pending',
    failureCode: null,
    txHash: null,
    idempotencyKey: input.idempotencyKey,
    createdAt: deps.clock.now(),
    completedAt: null,
  };
  let recorded: Withdrawal | null;
  try {
    recorded = await deps.db.transaction().execute(async (trx) => {
      // Holds the account against a freeze until the reservation commits (decision 0035).
      await assertNotFrozen(trx, intent.accountId, 'other');
      const inserted = await insertWithdrawal(trx, intent);
      if (inserted) {
        // Reserving locks the account's ledger account of the token, which serialises its token
        // movements: the limit check after it sees every one committed before (decision 0036).
        await reserveWithdrawal(trx, inserted);
        await deps.limits.checkAndRecord(trx, { ...limitVolumeOf(inserted), what: 'withdrawal' });
      }
      return inserted;
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_balance') {
      throw new AppError(
        'insufficient_balance',
        `Your available ${currency} balance is less than the ${formatMinorTrimmed(priced.amountMinor, currency)} ${currency} of this withdrawal (the fee is included in the amount).`,
      );
    }
    throw error;
  }
  if (!recorded) {
    // A request with the same key committed in between (possible only once its key's lease ran out).
    const earlier = await findWithdrawalByIdempotencyKey(deps.db, input.accountId, input.idempotencyKey!);
    assert(earlier, 'a conflicting withdrawal exists');
    return continueWithdrawal(deps, sameWithdrawalOrRefuse(earlier, request));
  }
  return continueWithdrawal(deps, recorded);
}

function sameWithdrawalOrRefuse(
  earlier: Withdrawal,
  request: { currency: string; grossMinor: bigint; address: string | null },
): Withdrawal {
  const same =
    earlier.currency === request.currency &&
    earlier.grossMinor === request.grossMinor &&
    (request.address === null || request.address === earlier.address);
  if (!same) throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used for a different withdrawal.');
  return earlier;
}

class NotPending extends Error {}
/** The account was frozen after the request: the withdrawal is given up unsent (decision 0035). */
class FrozenSince extends Error {}
/** The hot wallet cannot cover the withdrawal yet: it waits, reserved, for the withdrawal job. */
class AwaitingLiquidity extends Error {}

/**
 * Sends a pending withdrawal's transaction through the outbox (idempotent: a withdrawal that was
 * sent before gets its existing transaction back) and returns the withdrawal as it stands. Used by
 * the request and, for withdrawals that wait for the hot wallet or whose request died before
 * sending, by the withdrawal job. A withdrawal the hot wallet cannot cover yet, or that the node
 * could not take now, stays pending and waits (decision 0019): those are peerpay's reasons, not the
 * user's. Only a transfer the token contract itself refuses, with the tokens there, is given up.
 */
export async function continueWithdrawal(deps: WithdrawalDeps, w: Withdrawal): Promise<Withdrawal> {
  if (w.status !== 'pending') return w;
  const screening = await screenBeforeSigning(deps, w);
  if (screening === 'unavailable') return currentState(deps, w.id);
  if (screening === 'listed') return failSanctioned(deps, w);
  let txHash;
  try {
    ({ txHash } = await sendTokenFromTreasury(deps, {
      purpose: 'withdrawal',
      referenceId: w.id,
      token: w.currency,
      to: w.address,
      amountMinor: w.netMinor,
      // Under the outbox's lock: a withdrawal given up meanwhile (refunded) is never signed, and one
      // is signed only when the hot wallet holds its tokens beyond what earlier sends committed.
      precondition: async (trx) => {
        if ((await lockWithdrawal(trx, w.id))?.status !== 'pending') throw new NotPending();
        // Under the account's key-share lock to this transaction's end: a freeze committed before
        // it stops the withdrawal; one committing after it waits until the entry is recorded.
        if ((await frozenAmong(trx, [w.accountId], 'other')).size > 0) throw new FrozenSince();
        if ((await availableLiquidityMinor(deps, trx, w.currency)) < w.netMinor) throw new AwaitingLiquidity();
      },
    }));
  } catch (error) {
    if (error instanceof NotPending) return currentState(deps, w.id);
    if (error instanceof FrozenSince) {
      if (await giveUpUnsent(deps, w, 'account_frozen')) throw accountFrozen('other');
      return currentState(deps, w.id);
    }
    if (error instanceof ChainRevertError) {
      if (await giveUpUnsent(deps, w)) throw withdrawalUnavailable(error, w);
      return currentState(deps, w.id);
    }
    // Short of tokens, or the node did not answer: it waits. (Were the outbox entry committed after
    // all, the mark is harmless: only withdrawals without an entry are waiting.)
    await markWaiting(deps.db, { id: w.id, at: deps.clock.now() });
    return currentState(deps, w.id);
  }
  // With circle the hash is Circle's to tell, once the transfer completes (the withdrawal job records it).
  if (txHash === null) return currentState(deps, w.id);
  await setTxHash(deps.db, { id: w.id, txHash });
  return { ...(await currentState(deps, w.id)), txHash };
}

/**
 * Fails a pending withdrawal for which nothing was signed, refunding the gross. Done with the row
 * locked and only if the outbox has no entry for it, so it can never race with a send (the outbox
 * locks the same row before signing). Returns false when it was sent or ended meanwhile.
 */
export async function giveUpUnsent(
  deps: { db: Db; clock: Clock },
  w: Withdrawal,
  failureCode: 'not_sent' | 'account_frozen' = 'not_sent',
): Promise<boolean> {
  return deps.db.transaction().execute(async (trx: Trx) => {
    const locked = await lockWithdrawal(trx, w.id);
    if (locked?.status !== 'pending') return false;
    if (await findOutboxEntry(trx, { purpose: 'withdrawal', referenceId: w.id })) return false;
    const failed = await finishWithdrawal(trx, {
      id: w.id,
      status: 'failed',
      failureCode,
      txHash: null,
      at: deps.clock.now(),
      releaseKey: true,
    });
    assert(failed, 'a locked pending withdrawal can be ended');
    await resolveWithdrawal(trx, failed, 'void_pending');
    await recordWithdrawalEvent(trx, failed, failed.completedAt ?? deps.clock.now());
    return true;
  });
}

/**
 * The destination is screened again, asking the oracle afresh, right before the transaction is
 * signed: the request's answer may be minutes old (a withdrawal waiting for the hot wallet).
 * `listed`: nothing is signed (failSanctioned ends it). `unavailable`: nothing is signed and the
 * withdrawal stays pending for the job's next round, never sent on an unanswered question.
 * Already signed: `send` (what is signed is re-broadcast, never stopped halfway: it may be on
 * chain already).
 */
async function screenBeforeSigning(deps: WithdrawalDeps, w: Withdrawal): Promise<'send' | 'listed' | 'unavailable'> {
  if (await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: w.id })) return 'send';
  try {
    return (await deps.sanctions.screen(w.address, { fresh: true })) === 'listed' ? 'listed' : 'send';
  } catch (error) {
    if (error instanceof AppError && error.code === 'screening_unavailable') return 'unavailable';
    throw error;
  }
}

/**
 * A withdrawal whose destination was listed before it was signed: the account is frozen and the
 * withdrawal fails (`destination_sanctioned`), its gross back in the balance, with the events of a
 * failed withdrawal; all in one transaction. Money to a listed address never goes out, and money
 * in a frozen account cannot leave it either, so the balance is where it is safe (decision 0037).
 * Throws 403 destination_sanctioned for the request to answer (the job records it and goes on);
 * returns the withdrawal as it stands when it had ended or been signed meanwhile.
 */
async function failSanctioned(deps: WithdrawalDeps, w: Withdrawal): Promise<Withdrawal> {
  const ended = await deps.db.transaction().execute(async (trx: Trx) => {
    const at = deps.clock.now();
    await deps.sanctionsControls.freezeForSanctions(trx, { accountId: w.accountId, address: w.address, use: 'withdrawal_signing', at });
    const locked = await lockWithdrawal(trx, w.id);
    if (locked?.status !== 'pending') return false;
    // Signed meanwhile by another process (its screening said clear a moment earlier): it stands.
    if (await findOutboxEntry(trx, { purpose: 'withdrawal', referenceId: w.id })) return false;
    const failed = await finishWithdrawal(trx, {
      id: w.id,
      status: 'failed',
      failureCode: 'destination_sanctioned',
      txHash: null,
      at,
      releaseKey: true,
    });
    assert(failed, 'a locked pending withdrawal can be ended');
    await resolveWithdrawal(trx, failed, 'void_pending');
    await recordWithdrawalEvent(trx, failed, at);
    return true;
  });
  if (!ended) return currentState(deps, w.id);
  throw destinationSanctioned(w.address, true);
}

async function currentState(deps: { db: Db }, id: string): Promise<Withdrawal> {
  const w = await findWithdrawal(deps.db, id);
  assert(w, 'a recorded withdrawal exists');
  if (w.txHash === null) {
    const entry = await findOutboxEntry(deps.db, { purpose: 'withdrawal', referenceId: id });
    if (entry) return { ...w, txHash: entry.txHash };
  }
  return w;
}

function withdrawalUnavailable(cause: unknown, w: Withdrawal): AppError {
  // The contract's reason is an identifier (sandbox token) or a short revert string (Circle's tokens).
  const reason = cause instanceof ChainRevertError && cause.reason && /^[\w .:-]{1,80}$/.test(cause.reason) ? `: ${cause.reason}` : '';
  const why =
    cause instanceof ChainRevertError ? `the ${w.currency} contract refused the transfer${reason}` : 'the chain could not be reached';
  const error = new AppError(
    'withdrawal_unavailable',
    `peerpay cannot send this withdrawal right now (${why}). Nothing was sent and the amount is back in your balance; retry later.`,
    {},
    { 'Retry-After': '60' },
  );
  // Kept for the log line the route writes (as safe text); never sent to the client.
  (error as Error).cause = chainErrorText(cause);
  return error;
}
