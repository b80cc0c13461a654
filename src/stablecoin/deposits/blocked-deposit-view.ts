// A blocked (or released) deposit as the operator API answers it and the audit log records it:
// amounts as decimal strings, as the operator API gives every amount.
import { formatMinor } from '../../money/amount.js';
import type { BlockedDeposit } from './deposits-repository.js';

export function presentBlockedDeposit(deposit: BlockedDeposit) {
  return {
    id: deposit.id,
    accountId: deposit.accountId,
    currency: deposit.token,
    amount: formatMinor(deposit.amountMinor, deposit.token),
    from: deposit.from,
    txHash: deposit.txHash,
    status: deposit.status,
    createdAt: deposit.recordedAt.toISOString(),
    releasedAt: deposit.releasedAt?.toISOString() ?? null,
  };
}
