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
  idempotencyKey: string | null;
}

export interface SentStablecoinTransfer {
  transfer: StablecoinTransfer;
  recipientHandle: string;
}

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

export async function sendStablecoinTransfer(deps: TransferDeps, input: SendStablecoinInput): Promise<SentStablecoinTransfer> {
  const { currency, priced, recipient } = await termsOf(deps, input);
  const request = { recipientAccountId: recipient.id, currency, amountMinor: priced.amountMinor };

  const intent: StablecoinTransfer = {
    id: newId('sct'),
    senderAccountId: input.senderAccountId,
    ...request,
    feeMinor: priced.feeMinor,
    status: 'complete',
    idempotencyKey: input.idempotencyKey,
    createdAt: deps.clock.now(),
  };
  let recorded: StablecoinTransfer | null;
  try {
    // Shares a transaction (and its commit) with concurrent transfers: see ledger/group-commit.ts.
    recorded = await deps.transferBatches.run(transferMember(intent, { sender: input.senderHandle, recipient: recipient.handle }));
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_balance') {
      throw new AppError(
        'insufficient_balance',
        `Your available ${currency} balance is less than the ${formatMinorTrimmed(priced.amountMinor, currency)} ${currency} of this transfer (the fee is included in the amount).`,
      );
    }
    throw error;
  }
  if (!recorded) {
    // The sender already has a transfer under this key: a retry whose stored answer was lost (the
    // insert found it, so a first attempt costs no extra look-up), or one that committed in between.
    const earlier = await findTransferByIdempotencyKey(deps.db, input.senderAccountId, input.idempotencyKey!);
    assert(earlier, 'a conflicting transfer exists');
    return { transfer: sameTransferOrRefuse(earlier, request), recipientHandle: recipient.handle };
  }
  return { transfer: recorded, recipientHandle: recipient.handle };
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
