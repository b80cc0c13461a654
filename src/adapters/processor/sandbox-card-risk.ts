// The sandbox processor's refunds and payout reversals (DESIGN §16), in its own books
// (sandbox_refunds, sandbox_payout_reversals), idempotent per key as Stripe's are. Also what only a
// sandbox can do: a refund made "in the dashboard" (not by peerpay) and a refund that fails later,
// which test helpers turn into the same events Stripe would send.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import type { FiatCurrency } from '../../money/assets.js';
import type { PayoutReversalInput, ProcessorRefund, RefundInput } from './payment-processor.js';

interface RefundRow {
  ref: string;
  charge_ref: string;
  currency: string;
  amount: bigint;
  status: 'pending' | 'succeeded' | 'failed';
  refund_id: string | null;
}

function toRefund(row: RefundRow): ProcessorRefund {
  return {
    refundRef: row.ref,
    chargeRef: row.charge_ref,
    currency: row.currency as FiatCurrency,
    amountMinor: row.amount,
    status: row.status,
    refundId: row.refund_id,
  };
}

export class SandboxCardRisk {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async refund(input: RefundInput): Promise<ProcessorRefund> {
    const earlier = await this.byKey(input.idempotencyKey);
    if (earlier) {
      if (earlier.charge_ref !== input.chargeRef || earlier.amount !== input.amountMinor)
        throw new Error(`sandbox: idempotency key ${input.idempotencyKey} was used for a different refund`);
      return toRefund(earlier);
    }
    await this.insertRefund({
      chargeRef: input.chargeRef,
      amountMinor: input.amountMinor,
      idempotencyKey: input.idempotencyKey,
      refundId: input.refundId,
    });
    return toRefund((await this.byKey(input.idempotencyKey))!);
  }

  /** A refund made outside peerpay (Stripe's dashboard): no peerpay refund id. */
  async dashboardRefund(chargeRef: string, amountMinor: bigint): Promise<ProcessorRefund> {
    const ref = await this.insertRefund({ chargeRef, amountMinor, idempotencyKey: null, refundId: null });
    return toRefund(await this.refundRow(ref));
  }

  /** The card network gives up on a refund (Stripe: refund.failed). */
  async failRefund(refundRef: string): Promise<ProcessorRefund> {
    await this.deps.db.updateTable('sandbox_refunds').set({ status: 'failed' }).where('ref', '=', refundRef).execute();
    return toRefund(await this.refundRow(refundRef));
  }

  async listRefunds(chargeRef: string): Promise<readonly ProcessorRefund[]> {
    const rows = await this.deps.db
      .selectFrom('sandbox_refunds')
      .select(['ref', 'charge_ref', 'currency', 'amount', 'status', 'refund_id'])
      .where('charge_ref', '=', chargeRef)
      .orderBy('created_at')
      .orderBy('ref')
      .execute();
    return rows.map(toRefund);
  }

  async reversePayout(input: PayoutReversalInput): Promise<{ reversalRef: string }> {
    const db = this.deps.db;
    const payout = await db
      .selectFrom('sandbox_charges')
      .select(['amount', 'kind', 'status'])
      .where('ref', '=', input.payoutRef)
      .executeTakeFirst();
    if (!payout || payout.kind !== 'payout' || payout.status !== 'succeeded') throw new Error(`sandbox: no paid payout ${input.payoutRef}`);
    return db.transaction().execute(async (trx) => {
      await trx.selectFrom('sandbox_charges').select('ref').where('ref', '=', input.payoutRef).forUpdate().execute();
      const earlier = await trx
        .selectFrom('sandbox_payout_reversals')
        .selectAll()
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirst();
      if (earlier) return { reversalRef: earlier.ref };
      const reversed = await trx
        .selectFrom('sandbox_payout_reversals')
        .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
        .where('payout_ref', '=', input.payoutRef)
        .executeTakeFirstOrThrow();
      if (input.amountMinor <= 0n || BigInt(reversed.total) + input.amountMinor > payout.amount)
        throw new Error(`sandbox: a reversal of ${input.amountMinor} exceeds what is left of payout ${input.payoutRef}`);
      const ref = newId('trr_sbx');
      await trx
        .insertInto('sandbox_payout_reversals')
        .values({
          ref,
          idempotency_key: input.idempotencyKey,
          payout_ref: input.payoutRef,
          amount: input.amountMinor,
          created_at: this.deps.clock.now(),
        })
        .execute();
      return { reversalRef: ref };
    });
  }

  /** Records a succeeded refund of a charge, within what is left of it (Stripe refuses more). */
  private async insertRefund(input: {
    chargeRef: string;
    amountMinor: bigint;
    idempotencyKey: string | null;
    refundId: string | null;
  }): Promise<string> {
    const ref = newId('re_sbx');
    await this.deps.db.transaction().execute(async (trx) => {
      const charge = await trx
        .selectFrom('sandbox_charges')
        .select(['amount', 'currency', 'kind', 'status'])
        .where('ref', '=', input.chargeRef)
        .forUpdate()
        .executeTakeFirst();
      if (!charge || charge.kind === 'payout' || charge.status !== 'succeeded')
        throw new Error(`sandbox: no succeeded charge ${input.chargeRef}`);
      const refunded = await trx
        .selectFrom('sandbox_refunds')
        .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
        .where('charge_ref', '=', input.chargeRef)
        .where('status', '!=', 'failed')
        .executeTakeFirstOrThrow();
      if (input.amountMinor <= 0n || BigInt(refunded.total) + input.amountMinor > charge.amount)
        throw new Error(`sandbox: a refund of ${input.amountMinor} exceeds what is left of charge ${input.chargeRef}`);
      await trx
        .insertInto('sandbox_refunds')
        .values({
          ref,
          idempotency_key: input.idempotencyKey,
          charge_ref: input.chargeRef,
          currency: charge.currency,
          amount: input.amountMinor,
          status: 'succeeded',
          refund_id: input.refundId,
          created_at: this.deps.clock.now(),
        })
        .execute();
    });
    return ref;
  }

  private async byKey(key: string): Promise<RefundRow | undefined> {
    return this.deps.db
      .selectFrom('sandbox_refunds')
      .select(['ref', 'charge_ref', 'currency', 'amount', 'status', 'refund_id'])
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  private async refundRow(ref: string): Promise<RefundRow> {
    return this.deps.db
      .selectFrom('sandbox_refunds')
      .select(['ref', 'charge_ref', 'currency', 'amount', 'status', 'refund_id'])
      .where('ref', '=', ref)
      .executeTakeFirstOrThrow();
  }
}
