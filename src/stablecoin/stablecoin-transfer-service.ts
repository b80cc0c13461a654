// POST /agent/transfer and POST /stablecoin/transfer: send USDC or EURC to another user from the
// caller's balance, the 1.49% fee deducted from the amount. The record and the ledger movement are
// written in one database transaction, so a transfer is either complete or never happened. The
// client's Idempotency-Key is the record's natural key (unique per sender), so a retry whose stored
// answer was lost finds the transfer instead of sending twice.
import { refuseIfFrozen } from '../compliance/freezes/freeze-checks.js';
import { formatMinorTrimmed } from '../money/amount.js';
import { AppError, assert } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { resolveRecipient, type RecipientQuery } from './recipients.js';
import { priceOperation, tokenAmountOf, tokenOf } from './stablecoin-amounts.js';
import { transferMember } from './stablecoin-transfer-batch.js';
import type { StablecoinTransfer } from './stablecoin-transfer.js';
import { findTransferByIdempotencyKey } from './stablecoin-transfers-repository.js';
import { findKeyRecord } from '../platform/idempotency-in-transaction.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { TransferBatches } from './stablecoin-transfer-batch.js';
import type { AccountLookups } from '../accounts/account-lookups.js';

export interface SendStablecoinInput {
  senderAccountId: number;
  /** The sender's handle, as its events name it to the recipient. */
  senderHandle: string;
  to: RecipientQuery;
  /** As the client sent it: a JSON number in major units. */
  amount: number;
  currency: string;
  /** The request's Idempotency-Key, claimed and answered in the batch's transaction (decision 0050). */
  idempotency: KeyedRequest | null;
}

/** A request under an Idempotency-Key whose record this service writes, with the transfer. */
export interface KeyedRequest {
  key: string;
  /** The request as the idempotency plugin hashes it: another body under the same key is refused. */
  requestHash: string;
  /** The answer's body, as it will be sent and replayed. */
  answerOf: (sent: SentStablecoinTransfer) => string;
}

export interface SentStablecoinTransfer {
  transfer: StablecoinTransfer;
  recipientHandle: string;
}

/**
 * What a request gets: the transfer (`body` is its stored answer under the request's key, to send
 * as is), or the answer stored under its key by an earlier request, to replay.
 */
export type SendOutcome =
  { kind: 'sent'; sent: SentStablecoinTransfer; body: string | null } | { kind: 'replay'; status: number; body: string };

type TransferDeps = { accountLookups: AccountLookups; db: Db; clock: Clock; config: Config; transferBatches: TransferBatches };

/**
 * The terms checked before the batch. A frozen sender is refused by the batch, under the lock that
 * orders it against the freeze; a refusal of the terms themselves first asks whether the sender is
 * frozen, so that a frozen account hears account_frozen before anything else about the transfer
 * (DESIGN §17) without a read of its own on every transfer.
 */
async function termsOf(deps: TransferDeps, input: SendStablecoinInput) {
  try {
    const currency = tokenOf(input.currency);
    const priced = priceOperation(tokenAmountOf(input.amount, currency, deps.config.maxStablecoinOperationMajor), currency, 'transfer');
    const recipient = await resolveRecipient(deps, { senderAccountId: input.senderAccountId, query: input.to });
    return { currency, priced, recipient };
  } catch (error) {
    if (error instanceof AppError) await refuseIfFrozen(deps.db, input.senderAccountId, 'other');
    throw error;
  }
}

export async function sendStablecoinTransfer(deps: TransferDeps, input: SendStablecoinInput): Promise<SendOutcome> {
  const keyed = input.idempotency;
  let attempt: Attempt;
  try {
    attempt = await attemptTransfer(deps, input);
  } catch (error) {
    // Refused: was this key used before? Then that earlier request answers this one, as the claim
    // before the work did (a replay whose terms no longer hold, another body under the key).
    if (!keyed || !(error instanceof AppError)) throw error;
    const earlier = await earlierUnderKey(deps, input.senderAccountId, keyed, null);
    if (earlier) return earlier;
    throw error;
  }
  if (attempt.recorded) return { kind: 'sent', sent: attempt.sent, body: attempt.body };
  // The key was there already: a replay (the batch found the transfer or the key record), a retry
  // whose stored answer was lost, or the key another request's.
  assert(keyed, 'only a keyed transfer finds its key taken');
  const earlier = await earlierUnderKey(deps, input.senderAccountId, keyed, attempt.sent);
  // Taken and let go while this request ran (another route's request released it): the client retries.
  if (!earlier) throw keyInUse();
  return earlier;
}

/** A transfer as this request asked for it, and whether it was recorded (false: its key was taken). */
interface Attempt {
  sent: SentStablecoinTransfer;
  recorded: boolean;
  /** The answer stored under the request's key with the transfer. */
  body: string | null;
}

async function attemptTransfer(deps: TransferDeps, input: SendStablecoinInput): Promise<Attempt> {
  const { currency, priced, recipient } = await termsOf(deps, input);
  const keyed = input.idempotency;
  const intent: StablecoinTransfer = {
    id: newId('sct'),
    senderAccountId: input.senderAccountId,
    recipientAccountId: recipient.id,
    currency,
    amountMinor: priced.amountMinor,
    feeMinor: priced.feeMinor,
    status: 'complete',
    idempotencyKey: keyed?.key ?? null,
    createdAt: deps.clock.now(),
  };
  const sent = { transfer: intent, recipientHandle: recipient.handle };
  const keyAnswer = keyed
    ? { accountId: input.senderAccountId, key: keyed.key, requestHash: keyed.requestHash, status: 200, body: keyed.answerOf(sent) }
    : null;
  try {
    // Shares a transaction (and its commit) with concurrent transfers: see ledger/group-commit.ts.
    const recorded = await deps.transferBatches.run(
      transferMember(intent, { sender: input.senderHandle, recipient: recipient.handle }, keyAnswer),
    );
    return { sent, recorded: recorded !== null, body: keyAnswer?.body ?? null };
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_balance') {
      throw new AppError(
        'insufficient_balance',
        `Your available ${currency} balance is less than the ${formatMinorTrimmed(priced.amountMinor, currency)} ${currency} of this transfer (the fee is included in the amount).`,
      );
    }
    throw error;
  }
}

/**
 * What an earlier request under this key answers: its stored answer (replayed), 422 for another
 * body, 409 while it still runs; without a stored record (lost, or expired), the transfer it made,
 * when it is the one `asked` is (null: the request's terms were refused, and no transfer can
 * answer it). Null when the key has neither.
 */
async function earlierUnderKey(
  deps: TransferDeps,
  senderAccountId: number,
  keyed: KeyedRequest,
  asked: SentStablecoinTransfer | null,
): Promise<SendOutcome | null> {
  const record = await findKeyRecord(deps.db, senderAccountId, keyed.key);
  if (record) {
    if (record.requestHash !== keyed.requestHash) throw keyReused();
    if (record.state === 'in_progress') throw keyInUse();
    return { kind: 'replay', status: record.status ?? 200, body: record.body ?? '' };
  }
  if (!asked) return null;
  const earlier = await findTransferByIdempotencyKey(deps.db, senderAccountId, keyed.key);
  if (!earlier) return null;
  return {
    kind: 'sent',
    sent: { transfer: sameTransferOrRefuse(earlier, asked.transfer), recipientHandle: asked.recipientHandle },
    body: null,
  };
}

function keyReused(): AppError {
  return new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
}

function keyInUse(): AppError {
  return new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
    {},
    { 'Retry-After': '1' },
  );
}

/** The transfer this idempotency key already made, when the retry asks for the same one. */
function sameTransferOrRefuse(
  earlier: StablecoinTransfer,
  request: { recipientAccountId: number; currency: string; amountMinor: bigint },
): StablecoinTransfer {
  const same =
    earlier.recipientAccountId === request.recipientAccountId &&
    earlier.currency === request.currency &&
    earlier.amountMinor === request.amountMinor;
  if (!same) throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used for a different transfer.');
  return earlier;
}
