// POST /admin/payouts/{id}/reverse (DESIGN §16): an operator takes (part of) a paid payout back
// from the user's payout account; the money comes back to the user and repays what it owes first.
// The reversal's id comes from the Idempotency-Key (or is new without one) and is the processor's
// idempotency key, so that a repeat reverses once.
import type { PaymentProcessor } from '../../adapters/processor/payment-processor.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PayoutsTable } from '../../db/schema.js';
import { platformAccount } from '../../ledger/ledger-accounts.js';
import { formatMinor, parseAmount } from '../../money/amount.js';
import type { FiatCurrency } from '../../money/assets.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { newId, sha256Hex } from '../../platform/ids.js';
import { callProcessor } from '../processor-errors.js';
import { recordAudit, type Actor } from '../../compliance/audit/audit-log.js';
import { receive } from './take-back.js';

export interface PayoutReversal {
  id: string;
  payoutId: string;
  currency: FiatCurrency;
  amount: string;
  createdAt: string;
}

export interface PayoutReversals {
  reverse(
    input: { payoutId: string; amount?: number | undefined; note: string; idempotencyKey: string | null },
    by: Actor,
  ): Promise<{ reversal: PayoutReversal; replayed: boolean }>;
}

type Deps = { db: Db; clock: Clock; processor: Pick<PaymentProcessor, 'reversePayout'> };
type ReverseInput = Parameters<PayoutReversals['reverse']>[0];
type PaidPayout = Selectable<PayoutsTable>;

export function createPayoutReversals(deps: Deps): PayoutReversals {
  return {
    async reverse(input, by) {
      const requestHash = sha256Hex(JSON.stringify([input.payoutId, input.amount ?? null, input.note]));
      const id = input.idempotencyKey === null ? newId('prv') : `prv_${sha256Hex(`payout-reversal:${input.idempotencyKey}`).slice(0, 24)}`;
      const replay = await earlier(deps.db, id, requestHash);
      if (replay) return { reversal: replay, replayed: true };
      const { payout, currency, leftMinor } = await reversiblePayout(deps.db, input.payoutId);
      const amountMinor = reversalAmount(input.amount, currency, leftMinor);
      const answer = await callProcessor(() =>
        deps.processor.reversePayout({ payoutRef: payout.processor_ref!, currency, amountMinor, payoutId: payout.id, idempotencyKey: id }),
      );
      const now = deps.clock.now();
      const reversal: PayoutReversal = {
        id,
        payoutId: payout.id,
        currency,
        amount: formatMinor(amountMinor, currency),
        createdAt: now.toISOString(),
      };
      const recorded = { payout, reversal, amountMinor, leftMinor, reversalRef: answer.reversalRef, requestHash, now };
      const inserted = await recordReversal(deps.db, recorded, input, by);
      if (!inserted) return { reversal: (await earlier(deps.db, id, requestHash))!, replayed: true };
      return { reversal, replayed: false };
    },
  };
}

async function earlier(db: Db, id: string, requestHash: string): Promise<PayoutReversal | null> {
  const row = await db.selectFrom('payout_reversals').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== requestHash)
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
  const currency = row.currency as FiatCurrency;
  return {
    id: row.id,
    payoutId: row.payout_id,
    currency,
    amount: formatMinor(row.amount, currency),
    createdAt: row.created_at.toISOString(),
  };
}

/** The paid payout and how much of it is not yet reversed. */
async function reversiblePayout(db: Db, payoutId: string): Promise<{ payout: PaidPayout; currency: FiatCurrency; leftMinor: bigint }> {
  const payout = await db.selectFrom('payouts').selectAll().where('id', '=', payoutId).executeTakeFirst();
  if (!payout) throw new AppError('not_found', `No payout ${payoutId.slice(0, 64)}.`);
  if (payout.status !== 'paid' || !payout.processor_ref)
    throw new AppError('invalid_request', `Only a paid payout can be reversed; this one is ${payout.status}.`);
  const currency = payout.currency as FiatCurrency;
  const reversed = await db.selectFrom('payout_reversals').select('amount').where('payout_id', '=', payout.id).execute();
  const leftMinor = payout.amount - reversed.reduce((sum, r) => sum + r.amount, 0n);
  return { payout, currency, leftMinor };
}

/**
 * In one transaction: the reversal row, the money back to the user and the audit entry. False when
 * a concurrent request with the same id recorded it first.
 */
async function recordReversal(
  db: Db,
  r: {
    payout: PaidPayout;
    reversal: PayoutReversal;
    amountMinor: bigint;
    leftMinor: bigint;
    reversalRef: string;
    requestHash: string;
    now: Date;
  },
  input: ReverseInput,
  by: Actor,
): Promise<boolean> {
  const { payout, reversal, amountMinor, leftMinor, now } = r;
  const { id, currency } = reversal;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('payout_reversals')
      .values({
        id,
        payout_id: payout.id,
        account_id: payout.account_id,
        currency,
        amount: amountMinor,
        processor_ref: r.reversalRef,
        note: input.note,
        request_hash: r.requestHash,
        created_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    const received = await receive(trx, {
      accountId: payout.account_id,
      currency,
      amountMinor,
      from: platformAccount('processor_clearing', currency),
      operationId: `payout:${payout.id}:reversal:${id}`,
      code: 'payout_reversed',
    });
    await recordAudit(trx, {
      by,
      action: 'payout.reverse',
      target: payout.id,
      before: { reversible: formatMinor(leftMinor, currency) },
      after: { reversal, repaid: formatMinor(received.repaidMinor, currency) },
      note: input.note,
      at: now,
    });
    return true;
  });
}

function reversalAmount(amount: number | undefined, currency: FiatCurrency, leftMinor: bigint): bigint {
  if (leftMinor <= 0n) throw new AppError('invalid_amount', 'Nothing is left of this payout to reverse.');
  if (amount === undefined) return leftMinor;
  const parsed = parseAmount(amount, currency, 10n ** 15n);
  if (!parsed.ok) throw new AppError('invalid_amount', `The amount must be a positive ${currency} amount.`);
  if (parsed.minor > leftMinor)
    throw new AppError('invalid_amount', `At most ${formatMinor(leftMinor, currency)} ${currency} of this payout can be reversed.`);
  return parsed.minor;
}
