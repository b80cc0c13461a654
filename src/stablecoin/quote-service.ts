// GET /agent/transfer/quote: what a transfer would cost, computed by the same rules as the transfer
// itself (stablecoin-amounts.ts), so that a quote and the transfer it describes always agree. The
// recipient must exist, since a quote is for a transfer that could be made; the balance is not
// checked (a quote is a price, and a balance can change before the transfer). The sender's limits
// are: a quote refuses (429 limit_exceeded) what the transfer would, so that an agent can tell its
// user before asking them to confirm.
import type { AccountLookup } from '../accounts/account-lookups.js';
import type { Token } from '../money/assets.js';
import { STABLECOIN_FEE_RATE } from '../money/fees.js';
import { refuseIfFrozenBy, type FreezeReads } from '../compliance/freezes/freeze-reads.js';
import { accountFrozen, stops } from '../compliance/freezes/freeze-checks.js';
import type { Freeze } from '../compliance/freezes/freezes-repository.js';
import { resolveRecipient, shownHandleOf, type RecipientQuery } from './recipients.js';
import { priceOperation, tokenAmountOf, tokenOf, type Priced } from './stablecoin-amounts.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { AccountLookups } from '../accounts/account-lookups.js';

export interface QuoteInput {
  senderAccountId: number;
  to: RecipientQuery;
  /** The query parameter as sent: a decimal string in major units. */
  amount: string;
  /** Absent means USDC, as the contract says. */
  currency: string | undefined;
  /** The recipient's look-up, when authentication started it with the key. */
  recipientLookup?: AccountLookup | null;
  /** The sender's freeze, when authentication read it with the key (null: none); absent: read here. */
  senderFreeze?: Freeze | null;
}

export interface TransferQuote extends Priced {
  currency: Token;
  feeRateLabel: string;
  /** Null when `to` is a phone number of an account outside the public directory (recipients.ts). */
  recipientHandle: string | null;
}

export async function quoteTransfer(
  deps: { db: Db; config: Config; limits: AccountLimits; accountLookups: AccountLookups; freezes: FreezeReads },
  input: QuoteInput,
): Promise<TransferQuote> {
  // A frozen sender is told at the quote, before any client asks its user to confirm, and before
  // anything else about the terms (DESIGN §17): as read with the key when authentication did
  // (decision 0057), else read beside the recipient, not after it, and beside the other quotes of
  // this turn (freeze-reads.ts).
  if (input.senderFreeze !== undefined && stops(input.senderFreeze, 'other')) throw accountFrozen('other');
  const frozen = input.senderFreeze !== undefined ? Promise.resolve() : refuseIfFrozenBy(deps.freezes, input.senderAccountId, 'other');
  frozen.catch(() => undefined);
  try {
    const currency = tokenOf(input.currency ?? 'USDC');
    const priced = priceOperation(tokenAmountOf(input.amount, currency, deps.config.maxStablecoinOperationMajor), currency, 'transfer');
    const recipient = await resolveRecipient(deps, {
      senderAccountId: input.senderAccountId,
      query: input.to,
      started: input.recipientLookup,
    });
    await frozen;
    await deps.limits.refuseBeyond({ accountId: input.senderAccountId, currency, amountMinor: priced.amountMinor, what: 'transfer' });
    return { ...priced, currency, feeRateLabel: STABLECOIN_FEE_RATE.label, recipientHandle: shownHandleOf(input.to, recipient) };
  } catch (error) {
    await frozen;
    throw error;
  }
}
