// The fiat transfer and its state machine:
//   processing → completed   card charged (instant), or a bank debit the processor settled at once
//   processing → pending     bank debit accepted; the recipient's credit is pending
//   processing → failed      card declined or needing its holder, or bank debit refused at once; nothing moved
//   pending    → completed   the bank debit settled; the pending credit is posted
//   pending    → failed      the bank debit was returned; the pending credit is voided
// `processing` exists only between recording the intent and recording the processor's answer.
import type { FiatCurrency } from '../money/assets.js';
import type { FiatPaymentMethod } from '../money/fees.js';

export type FiatTransferStatus = 'processing' | 'pending' | 'completed' | 'failed';

export interface FiatTransfer {
  id: string;
  senderAccountId: number;
  recipientAccountId: number;
  currency: FiatCurrency;
  amountMinor: bigint;
  feeMinor: bigint;
  paymentMethod: FiatPaymentMethod;
  status: FiatTransferStatus;
  note: string | null;
  instrumentRef: string | null;
  processorRef: string | null;
  failureCode: string | null;
  idempotencyKey: string | null;
  createdAt: Date;
  settlesAt: Date | null;
  completedAt: Date | null;
}

/**
 * What a transfer counts towards its sender's limits (DESIGN §17): fees included, so the amount
 * and the fee, in the buckets of when it was asked for. A transfer that fails gives it back.
 */
export function limitVolumeOf(t: FiatTransfer): { accountId: number; currency: FiatCurrency; amountMinor: bigint; at: Date } {
  return { accountId: t.senderAccountId, currency: t.currency, amountMinor: t.amountMinor + t.feeMinor, at: t.createdAt };
}

/** The ledger operation that credits the recipient (and the fee) for a transfer. */
export function creditOperationId(transferId: string): string {
  return `fiat:${transferId}`;
}
