// POST /admin/payouts/{id}/reverse (DESIGN §16): an operator takes (part of) a paid payout back
// from the user's payout account; the money comes back to the user and repays what it owes first.
// The reversal's id comes from the Idempotency-Key (or is new without one) and is the processor's
// idempotency key, so that a repeat reverses once.
import type { PaymentProcessor } from '../../adapters/processor/payment-processor.js';
import type { Db } from '../../db/database.js';
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

export function createPayoutReversals(deps: { db: Db; clock: Clock; processor: Pick<PaymentProcessor, 'reversePayout'> }): PayoutReversals {
  async function earlier(id: string, requestHash: string): Promise<PayoutReversal | null> {
    const row = await deps.db.selectFrom('payout_reversals').selectAll().where('id', '=', id).executeTakeFirst();
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

  return {
    async reverse(input, by) {
      const requestHash = sha256Hex(JSON.stringify([input.payoutId, input.amount ?? null, input.note]));
      const id = input.idempotencyKey === null ? newId('prv') : `prv_${sha256Hex(`payout-reversal:${input.idempotencyKey}`).slice(0, 24)}`;
      const replay = await earlier(id, requestHash);
      if (replay) return { reversal: replay, replayed: true };
      const payout = await deps.db.selectFrom('payouts').selectAll().where('id', '=', input.payoutId).executeTakeFirst();
      if (!payout) throw new AppError('not_found', `No payout ${input.payoutId.slice(0, 64)}.`);
      if (payout.status !== 'paid' || !payout.processor_ref)
        throw new AppError('invalid_request', `Only a paid payout can be reversed; this one is ${payout.status}.`);
      const currency = payout.currency as FiatCurrency;
      const reversed = await deps.db.selectFrom('payout_reversals').select('amount').where('payout_id', '=', payout.id).execute();
      const leftMinor = payout.amount - reversed.reduce((sum, r) => sum + r.amount, 0n);
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
      const inserted = await deps.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('payout_reversals')
          .values({
            id,
            payout_id: payout.id,
            account_id: payout.account_id,
            currency,
            amount: amountMinor,
            processor_ref: answer.reversalRef,
            note: input.note,
            request_hash: requestHash,
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
      if (!inserted) return { reversal: (await earlier(id, requestHash))!, replayed: true };
      return { reversal, replayed: false };
    },
  };
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
