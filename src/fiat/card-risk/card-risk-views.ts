// Refunds and disputes as the API shows them (DESIGN §16).
import { formatMinor } from '../../money/amount.js';
import type { Refund } from './refunds-repository.js';
import type { Dispute } from './disputes-repository.js';

export function presentRefund(refund: Refund) {
  return {
    id: refund.id,
    transferId: refund.transferId,
    amount: formatMinor(refund.amountMinor, refund.currency),
    fee: formatMinor(refund.feeMinor, refund.currency),
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
    origin: refund.origin,
    createdAt: refund.createdAt.toISOString(),
  };
}

export function presentDispute(dispute: Dispute) {
  return {
    id: dispute.id,
    transferId: dispute.transferId,
    currency: dispute.currency,
    amount: formatMinor(dispute.amountMinor, dispute.currency),
    takenBack: formatMinor(dispute.takenMinor, dispute.currency),
    fee: formatMinor(dispute.feeTakenMinor, dispute.currency),
    disputeFee: formatMinor(dispute.disputeFeeMinor, dispute.currency),
    reason: dispute.reason,
    status: dispute.status,
    openedAt: dispute.openedAt.toISOString(),
    closedAt: dispute.closedAt === null ? null : dispute.closedAt.toISOString(),
  };
}
