// POST /admin/transfers/{id}/refund (DESIGN §16): an operator refunds (part of) a fiat transfer.
// Three steps, no processor call inside a transaction: book the refund (take-back, fee, operator
// action, events) as pending; ask the processor (the refund id as idempotency key); record its
// answer (a failure undoes the take-back once). The Idempotency-Key makes the whole thing safe to
// repeat: a repeat finds the refund and carries it on from where it stands.
import type { PaymentProcessor, RefundReason } from '../../adapters/processor/payment-processor.js';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import { formatMinor, parseAmount } from '../../money/amount.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { newId, sha256Hex } from '../../platform/ids.js';
import type { FiatTransfer } from '../fiat-transfer.js';
import { findTransfer, lockTransfer } from '../fiat-transfers-repository.js';
import { callProcessor } from '../processor-errors.js';
import { recordAudit, type Actor } from '../../compliance/audit/audit-log.js';
import { bookRefund, failRefund, refundableOf } from './refund-booking.js';
import { findRefundByKey, lockRefund, updateRefund, type Refund } from './refunds-repository.js';
import { presentRefund } from './card-risk-views.js';

export interface OperatorRefundRequest {
  transferId: string;
  /** Major units, as the operator sent it; absent: all that is left of the transfer. */
  amount?: number | undefined;
  refundFee?: boolean | undefined;
  reason: RefundReason;
  note: string;
  idempotencyKey: string | null;
}

export interface OperatorRefunds {
  refund(request: OperatorRefundRequest, by: Actor): Promise<{ refund: Refund; replayed: boolean }>;
  /** Asks the processor again for a refund still `pending` (same idempotency key: never two refunds). */
  carryOn(refund: Refund): Promise<Refund>;
}

export function createOperatorRefunds(deps: { db: Db; clock: Clock; processor: Pick<PaymentProcessor, 'refund'> }): OperatorRefunds {
  async function send(refund: Refund): Promise<Refund> {
    if (refund.status !== 'pending') return refund;
    const transfer = await findTransfer(deps.db, refund.transferId);
    if (!transfer?.processorRef) throw new Error(`refund ${refund.id}: its transfer has no charge`);
    const answer = await callProcessor(() =>
      deps.processor.refund({
        chargeRef: transfer.processorRef!,
        currency: refund.currency,
        amountMinor: refund.amountMinor + refund.feeMinor,
        reason: refund.reason as RefundReason,
        transferId: transfer.id,
        refundId: refund.id,
        idempotencyKey: refund.id,
      }),
    );
    return deps.db.transaction().execute(async (trx) => {
      const now = deps.clock.now();
      const current = await lockRefund(trx, { id: refund.id });
      if (!current || current.status !== 'pending') return current ?? refund;
      if (answer.status === 'failed') {
        await failRefund(trx, { refund: current, transfer, now });
        return (await lockRefund(trx, { id: refund.id }))!;
      }
      return updateRefund(trx, { id: refund.id, status: answer.status, processorRef: answer.refundRef, now });
    });
  }

  return {
    carryOn: send,
    async refund(request, by) {
      const requestHash = sha256Hex(
        JSON.stringify([request.transferId, request.amount ?? null, request.refundFee ?? false, request.reason, request.note]),
      );
      if (request.idempotencyKey !== null) {
        const earlier = await findRefundByKey(deps.db, request.idempotencyKey);
        if (earlier) {
          if (earlier.requestHash !== requestHash)
            throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
          return { refund: await send(earlier), replayed: true };
        }
      }
      const booked = await deps.db.transaction().execute((trx) => book(trx, { request, by, requestHash, now: deps.clock.now() }));
      return { refund: await send(booked), replayed: false };
    },
  };
}

async function book(trx: Trx, input: { request: OperatorRefundRequest; by: Actor; requestHash: string; now: Date }): Promise<Refund> {
  const { request, now } = input;
  const transfer = await lockTransfer(trx, request.transferId);
  if (!transfer) throw new AppError('not_found', `No transfer ${request.transferId.slice(0, 64)}.`);
  if (transfer.status !== 'completed' || !transfer.processorRef)
    throw new AppError('invalid_request', `Only a completed transfer can be refunded; this one is ${transfer.status}.`);
  await refuseWhileDisputed(trx, transfer);
  const refundable = await refundableOf(trx, transfer);
  const amountMinor = requestedAmount(request.amount, transfer, refundable.amountMinor);
  const feeMinor = request.refundFee ? feeShare(transfer, amountMinor, refundable) : 0n;
  const refund: Refund = {
    id: newId('rf'),
    transferId: transfer.id,
    origin: 'operator',
    processorRef: null,
    currency: transfer.currency,
    amountMinor,
    feeMinor,
    status: 'pending',
    reason: request.reason,
    note: request.note,
    idempotencyKey: request.idempotencyKey,
    requestHash: input.requestHash,
    undoneAt: null,
    createdAt: now,
  };
  if (!(await bookRefund(trx, { transfer, refund, now })))
    throw new AppError(
      'idempotency_key_in_use',
      'A refund with this Idempotency-Key is being made; retry shortly.',
      {},
      { 'Retry-After': '1' },
    );
  await recordAudit(trx, {
    by: input.by,
    action: 'transfer.refund',
    target: transfer.id,
    before: { refundable: presentRefundable(transfer, refundable) },
    after: { refund: presentRefund(refund) },
    note: request.note,
    at: now,
  });
  return refund;
}

function requestedAmount(amount: number | undefined, transfer: FiatTransfer, refundableMinor: bigint): bigint {
  if (amount === undefined) {
    if (refundableMinor <= 0n) throw new AppError('invalid_amount', 'Nothing is left of this transfer to refund.');
    return refundableMinor;
  }
  const parsed = parseAmount(amount, transfer.currency, 10n ** 15n);
  if (!parsed.ok) throw new AppError('invalid_amount', `The amount must be a positive ${transfer.currency} amount.`);
  if (parsed.minor > refundableMinor)
    throw new AppError(
      'invalid_amount',
      `At most ${formatMinor(refundableMinor, transfer.currency)} ${transfer.currency} of this transfer can still be refunded.`,
    );
  return parsed.minor;
}

/** The fee given back with `amountMinor`: in proportion, and all that is left of it with the last of the amount. */
function feeShare(transfer: FiatTransfer, amountMinor: bigint, refundable: { amountMinor: bigint; feeMinor: bigint }): bigint {
  if (amountMinor === refundable.amountMinor) return refundable.feeMinor;
  const share = (transfer.feeMinor * amountMinor) / transfer.amountMinor;
  return share < refundable.feeMinor ? share : refundable.feeMinor;
}

function presentRefundable(transfer: FiatTransfer, refundable: { amountMinor: bigint; feeMinor: bigint }) {
  return { amount: formatMinor(refundable.amountMinor, transfer.currency), fee: formatMinor(refundable.feeMinor, transfer.currency) };
}

/** Stripe refuses to refund a charge under dispute; so does peerpay, before anything moves. */
async function refuseWhileDisputed(trx: Trx, transfer: FiatTransfer): Promise<void> {
  const open = await trx
    .selectFrom('disputes')
    .select('id')
    .where('transfer_id', '=', transfer.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (open) throw new AppError('invalid_request', 'This transfer is disputed; it cannot be refunded while the dispute is open.');
}
