// A card transfer on a processor whose books are peerpay's own tables (the sandbox) in one
// transaction (card-send-batch.ts, decision 0063): the processor decides the charge without
// writing it, and the transfer is recorded completed with its charge, credit, hold, limit volume
// and events, in a group commit with the others of its moment. A card that declines, a processor
// that is Stripe, or a member the batch sends apart goes the two-step way (fiat-transfer-service.ts).
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Config } from '../config.js';
import type { Clock } from '../platform/clock.js';
import { cardSendMember, sentApart, type CardSends } from './card-send-batch.js';
import { cardHoldOf } from './fiat-ledger.js';
import type { FiatTransfer } from './fiat-transfer.js';
import { processorUnavailable } from './processor-errors.js';
import type { TransferHandles } from './transfer-events.js';
import { chargeInputOf } from './transfer-processing.js';

type CardSendDeps = { processor: PaymentProcessor; clock: Clock; config: Config; cardSends?: CardSends | undefined };

/**
 * The transfer `intent` describes, sent and recorded in one transaction: completed, or refused
 * (frozen, beyond its limits) with nothing recorded. Null when it must go the two-step way: no
 * such processor or group commit, a bank debit, a card that would not succeed, or a member the
 * batch could not answer (its key may be taken).
 */
export async function sendCardInOneStep(
  deps: CardSendDeps,
  intent: FiatTransfer,
  known: { customerRef: string; handles: TransferHandles },
): Promise<FiatTransfer | null> {
  const inCredit = intent.paymentMethod === 'instant' ? deps.processor.chargesInCredit : undefined;
  if (!deps.cardSends || !inCredit || !intent.instrumentRef) return null;
  const input = { ...chargeInputOf(intent, known.customerRef), cardRef: intent.instrumentRef };
  const charge = await inCredit.succeedingCharge(input).catch((error: unknown) => {
    throw processorUnavailable(error);
  });
  // A card that declines: the two steps record the intent, then the decline, as they always have.
  if (!charge) return null;
  const now = deps.clock.now();
  const transfer: FiatTransfer = { ...intent, status: 'completed', processorRef: charge.chargeRef, completedAt: now };
  const member = cardSendMember(transfer, {
    charge,
    by: inCredit,
    hold: cardHoldOf(transfer, deps.config.fiatHoldMs, now),
    handles: known.handles,
  });
  try {
    return await deps.cardSends.run(member);
  } catch (error) {
    if (sentApart(error)) return null;
    throw error;
  }
}
