// The terms of a withdrawal (DESIGN §12): the service's quote of USDC or EURC to a Polygon address,
// said for the user, and the withdrawal of exactly those terms. Shared by the withdraw tool and the
// peerpay command's withdraw.
import type { PeerpayClient } from '@peerpay/client';
import { decimalOf } from './formatting.js';
import { TermsError } from './tool-results.js';

export interface WithdrawalTerms {
  terms: { amount: string; currency: string; address: string };
  structured: Record<string, unknown>;
  summary: string;
}

export async function quoteWithdrawalTerms(
  api: PeerpayClient,
  args: { amount: string | number; currency: string; address?: string | undefined },
): Promise<WithdrawalTerms> {
  const amount = decimalOf(args.amount);
  if (amount === null) throw new TermsError('invalid_amount', 'The amount must be a positive decimal number such as "5" or "5.50".');
  const q = await api.quoteWithdrawal({
    query: { amount, currency: args.currency, ...(args.address !== undefined ? { address: args.address } : {}) },
  });
  return {
    terms: { amount: decimalOf(q.gross)!, currency: q.currency, address: q.address },
    structured: q,
    summary: `Withdraw ${q.gross} ${q.currency} to ${q.address} on Polygon. Fee ${q.fee} ${q.currency} (${q.feeRate}); ${q.net} ${q.currency} arrives.`,
  };
}

/** Withdraws exactly the quoted terms (to the quoted address, also when it was the default). */
export function withdrawOnTerms(api: PeerpayClient, quoted: WithdrawalTerms, idempotencyKey?: string) {
  const t = quoted.terms;
  return api.createWithdrawal({
    body: { amount: t.amount, currency: t.currency, address: t.address },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
}

export function describeWithdrawal(result: object): string {
  const w = result as {
    gross: number;
    net: number;
    fee: number;
    currency: string;
    address: string;
    status: string;
    /** null while the withdrawal waits for peerpay's hot wallet to hold the tokens. */
    txId: string | null;
    note?: string;
  };
  const transaction = w.txId === null ? 'not sent yet (waiting for peerpay to send it)' : `transaction ${w.txId}`;
  return `Withdrawal of ${w.gross} ${w.currency} to ${w.address}: ${w.net} ${w.currency} (fee ${w.fee}), status ${w.status}, ${transaction}.${w.note ? ` ${w.note}` : ''}`;
}
