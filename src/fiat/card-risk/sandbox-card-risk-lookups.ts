// What the sandbox's card-risk helpers read before they make up a processor's event (DESIGN §16):
// the charged transfer a dispute or refund is about, a dispute to close, a refund the sandbox made.
import { findTransfer } from '../fiat-transfers-repository.js';
import type { Db } from '../../db/database.js';

export interface SandboxCardRiskLookups {
  /** The transfer, when it was charged at the processor; undefined otherwise. */
  chargedTransfer(
    transferId: string,
  ): Promise<(NonNullable<Awaited<ReturnType<typeof findTransfer>>> & { processorRef: string }) | undefined>;
  /** A dispute by its processor reference, with the charge it disputes. */
  dispute(
    disputeRef: string,
  ): Promise<{ amount: bigint; currency: string; reason: string; disputeFee: bigint | null; chargeRef: string | null } | undefined>;
  /** Whether the sandbox processor made this refund. */
  sandboxRefundExists(refundRef: string): Promise<boolean>;
}

export function createSandboxCardRiskLookups({ db }: { db: Db }): SandboxCardRiskLookups {
  return {
    async chargedTransfer(transferId) {
      const transfer = await findTransfer(db, transferId);
      if (!transfer?.processorRef || transfer.status !== 'completed') return undefined;
      return { ...transfer, processorRef: transfer.processorRef };
    },
    async dispute(disputeRef) {
      const row = await db
        .selectFrom('disputes')
        .innerJoin('fiat_transfers as t', 't.id', 'disputes.transfer_id')
        .select(['disputes.amount', 'disputes.currency', 'disputes.reason', 'disputes.dispute_fee', 't.processor_ref'])
        .where('disputes.processor_ref', '=', disputeRef)
        .executeTakeFirst();
      return (
        row && { amount: row.amount, currency: row.currency, reason: row.reason, disputeFee: row.dispute_fee, chargeRef: row.processor_ref }
      );
    },
    async sandboxRefundExists(refundRef) {
      return (await db.selectFrom('sandbox_refunds').select('ref').where('ref', '=', refundRef).executeTakeFirst()) !== undefined;
    },
  };
}
