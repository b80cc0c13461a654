// A card transfer whose charge succeeded, waiting to be credited in a group commit
// (card-credit-batch.ts): what the batch must lock and what its writer needs.
import type { ChargesInCredit, UnwrittenCardCharge } from '../adapters/processor/payment-processor.js';
import type { MemberPlan } from '../ledger/group-commit.js';
import { platformAccount, userAvailable, userHeld, type LedgerAccountKey } from '../ledger/ledger-accounts.js';
import type { CardHold } from './fiat-ledger.js';
import type { FiatTransfer } from './fiat-transfer.js';
import type { TransferHandles } from './transfer-events.js';

export interface CardCreditMember extends MemberPlan {
  /** The transfer as its intent recorded it (processing). */
  readonly transfer: FiatTransfer;
  /** The processor's charge, which paid amount + fee. */
  readonly chargeRef: string;
  /** When the answer was recorded: the transfer's completedAt, its events' and hold's time. */
  readonly now: Date;
  /** The hold on the recipient's money (DESIGN §16), when card money is held. */
  readonly hold: CardHold | undefined;
  readonly handles: TransferHandles;
  /** The processor's charge when the batch writes it (ChargesInCredit: the sandbox), with who writes it. */
  readonly unwritten?: { readonly charge: UnwrittenCardCharge; readonly by: ChargesInCredit } | undefined;
}

export function cardCreditMember(
  transfer: FiatTransfer,
  answer: Pick<CardCreditMember, 'chargeRef' | 'now' | 'hold' | 'handles' | 'unwritten'>,
): CardCreditMember {
  return { accounts: creditAccounts(transfer, answer.hold), transfer, ...answer };
}

/**
 * The ledger accounts a card transfer's credit names, but the receivable: only one owing something
 * is locked, found under the recipient's lock (card-credit-locks.ts). The fees account is the
 * batch's shard of it.
 */
export function creditAccounts(transfer: FiatTransfer, hold: CardHold | undefined): LedgerAccountKey[] {
  const destination = hold
    ? userHeld(transfer.recipientAccountId, transfer.currency)
    : userAvailable(transfer.recipientAccountId, transfer.currency);
  const accounts: LedgerAccountKey[] = [platformAccount('processor_clearing', transfer.currency), destination];
  if (transfer.feeMinor > 0n) accounts.push(platformAccount('fees', transfer.currency));
  return accounts;
}
