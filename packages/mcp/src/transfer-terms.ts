// The terms of a transfer (DESIGN §12): the service's own quote on the rail of the currency (fiat for
// USD, EUR, GBP, JPY; stablecoin for USDC, EURC), said for the user, and the send of exactly those
// terms. Shared by quote_transfer, send_money and the peerpay command's quote and send.
import type { PeerpayClient } from '@peerpay/client';
import { decimalOf, quoted } from './formatting.js';
import { TermsError } from './tool-results.js';

const TOKENS = new Set(['USDC', 'EURC']);

export interface TransferArgs {
  to: string;
  amount: string | number;
  currency: string;
  paymentMethod?: 'instant' | 'ach' | undefined;
  note?: string | undefined;
}

/** The exact terms of a transfer, as confirmed and as sent. */
export interface TransferTerms {
  rail: 'fiat' | 'stablecoin';
  terms: {
    rail: 'fiat' | 'stablecoin';
    /** Null when the recipient was named by a phone number and keeps its handle private. */
    recipientHandle: string | null;
    /** The phone number the transfer goes to, when the service did not name the account. */
    recipientPhone: string | null;
    amount: string;
    currency: string;
    paymentMethod: string | null;
    note: string | null;
  };
  /** The quote as the service answered it, with the recipient's name and handle. */
  structured: Record<string, unknown>;
  /** One paragraph for the user: recipient, amount, currency, fee and what arrives. */
  summary: string;
}

/**
 * The recipient as peerpay shows it: the handle, with the account's first name beside it in quotes
 * (a name is the account holder's words, not peerpay's), or the phone number the user gave when the
 * service keeps that account's handle private.
 */
function recipientText(recipient: { handle: string | null; firstName: string | null; phone?: string | null }): string {
  if (recipient.handle === null) return `the account with phone number ${quoted(recipient.phone ?? '')}`;
  return recipient.firstName ? `${quoted(recipient.firstName)} (handle ${recipient.handle})` : `handle ${recipient.handle}`;
}

/** The recipient, fee and what arrives, from the service's own quote on the rail of the currency. */
export async function quoteTransferTerms(api: PeerpayClient, args: TransferArgs): Promise<TransferTerms> {
  const amount = decimalOf(args.amount);
  if (amount === null) throw new TermsError('invalid_amount', 'The amount must be a positive decimal number such as "10" or "10.50".');
  const currency = args.currency.trim().toUpperCase();
  const note = args.note ?? null;
  if (TOKENS.has(currency)) {
    if (args.paymentMethod !== undefined)
      throw new TermsError('invalid_field', 'paymentMethod is for fiat currencies only; leave it out for USDC or EURC.');
    if (note !== null) throw new TermsError('invalid_field', 'A note can be sent with fiat transfers only; leave it out for USDC or EURC.');
    return stablecoinTerms(api, args.to, amount, currency);
  }
  const recipient = await api.lookupAgent({ query: args.to.includes('@') ? { email: args.to.trim() } : { handle: args.to.trim() } });
  const q = await api.quoteTransfer({
    query: { recipientHandle: recipient.handle, amount, currency, ...(args.paymentMethod ? { paymentMethod: args.paymentMethod } : {}) },
  });
  const who = recipientText({ handle: q.recipientHandle, firstName: recipient.firstName ?? null });
  // The note is the sender's own text: quoted, so that it reads as theirs, never as peerpay's terms.
  const noteText = note !== null ? ` The note to the recipient reads ${quoted(note)}.` : '';
  const how = q.paymentMethod === 'ach' ? 'by bank debit (settles in 3 business days)' : 'by card';
  return {
    rail: 'fiat',
    terms: {
      rail: 'fiat',
      recipientHandle: q.recipientHandle,
      recipientPhone: null,
      amount: q.amount,
      currency: q.currency,
      paymentMethod: q.paymentMethod,
      note,
    },
    structured: {
      rail: 'fiat',
      recipient: { handle: q.recipientHandle, firstName: recipient.firstName ?? null },
      ...q,
      ...(note !== null ? { note } : {}),
    },
    summary: `Send ${q.amount} ${q.currency} to ${who} ${how}. Fee ${q.fee} ${q.currency} (${q.feeRate}) on top: you pay ${q.totalDeducted} ${q.currency}; the recipient receives ${q.amount} ${q.currency}.${noteText}`,
  };
}

/** The stablecoin rail's terms: the service's quote, and the recipient's first name when it names the account. */
async function stablecoinTerms(api: PeerpayClient, to: string, amount: string, currency: string): Promise<TransferTerms> {
  const q = await api.quoteAgentTransfer({ query: { to, amount, currency } });
  const handle = q.recipientHandle ?? null;
  const phone = handle === null ? to.trim() : null;
  const name = handle === null ? null : await firstName(api, handle);
  const who = recipientText({ handle, firstName: name, phone });
  return {
    rail: 'stablecoin',
    terms: {
      rail: 'stablecoin',
      recipientHandle: handle,
      recipientPhone: phone,
      amount: decimalOf(q.amount)!,
      currency: q.currency,
      paymentMethod: null,
      note: null,
    },
    structured: { rail: 'stablecoin', recipient: handle === null ? { phone } : { handle, firstName: name }, ...q },
    summary: `Send ${q.amount} ${q.currency} to ${who}. Fee ${q.fee} ${q.currency} (${q.feeRate}) comes out of it; the recipient receives ${q.recipientReceives} ${q.currency}.`,
  };
}

/** Sends exactly the quoted terms (to the quoted handle, or the phone number when the quote named no handle). */
export function sendOnTerms(api: PeerpayClient, quoted: TransferTerms, idempotencyKey?: string) {
  const t = quoted.terms;
  const key = idempotencyKey ? { idempotencyKey } : {};
  return t.rail === 'fiat'
    ? api.createTransfer({
        body: {
          recipientHandle: t.recipientHandle!,
          amount: t.amount,
          currency: t.currency,
          paymentMethod: t.paymentMethod as 'instant' | 'ach',
          ...(t.note !== null ? { note: t.note } : {}),
        },
        ...key,
      })
    : api.createAgentTransfer({ body: { to: (t.recipientHandle ?? t.recipientPhone)!, amount: t.amount, currency: t.currency }, ...key });
}

async function firstName(api: PeerpayClient, handle: string): Promise<string | null> {
  try {
    return (await api.lookupStablecoinRecipient({ query: { handle } })).firstName ?? null;
  } catch {
    return null;
  }
}

export function describeSent(result: object): string {
  const r = result as {
    transfer?: { amount: string; currency: string; fee: string; status: string; recipientHandle: string };
    amount?: number;
    currency?: string;
    status?: string;
    recipientHandle?: string;
    recipientAmount?: number;
    fee?: number;
  };
  if (r.transfer)
    return `Sent ${r.transfer.amount} ${r.transfer.currency} to ${r.transfer.recipientHandle} (fee ${r.transfer.fee}); status ${r.transfer.status}.`;
  return `Sent ${r.amount} ${r.currency} to ${r.recipientHandle} (fee ${r.fee}, they receive ${r.recipientAmount}); status ${r.status}.`;
}
