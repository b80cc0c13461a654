// What `peerpay send` and `withdraw` check before asking for a yes, and the question itself: a
// movement the balance cannot cover, or a payment method that is not set up, is refused before the
// question (nothing would be sent anyway), with what to do instead.
import type { PeerpayClient } from '@peerpay/client';
import { Exit, type CliContext } from './cli-context.js';
import { ask } from './prompt.js';

/** Refuses before the question when the balance cannot cover the amount: nothing would be sent anyway. */
export async function requireTokens(api: PeerpayClient, currency: string, amount: string): Promise<void> {
  const balance = await api.getStablecoinBalance();
  const have = (balance as Record<string, string | undefined>)[currency];
  if (have === undefined || compareDecimals(have, amount) >= 0) return;
  throw new Exit(
    1,
    `Not enough ${currency}: you have ${have} ${currency} and this needs ${amount} ${currency}. Nothing was sent.\n` +
      `Add funds with \`peerpay links funding --amount <amount> --currency ${currency}\`, or send less.`,
  );
}

/**
 * Refuses before the question when the payment method is not set up (no card, no bank debit):
 * nothing would be sent anyway, so the user gets the link to set it up instead of a yes to answer.
 */
export async function requireInstrument(api: PeerpayClient, method: 'instant' | 'ach'): Promise<void> {
  const { paymentMethods } = await api.getAccount();
  if (method === 'instant' ? paymentMethods.card : paymentMethods.bankDebit) return;
  const link = method === 'instant' ? await api.createCardSetupLink() : await api.createBankDebitSetupLink();
  throw new Exit(
    1,
    method === 'instant'
      ? `No card yet: open this link to add one: ${link.url}\nThen run the command again. Nothing was sent.`
      : `Bank debit is not set up yet (or send with --method instant): open this link to allow it: ${link.url}\nThen run the command again. Nothing was sent.`,
  );
}

/** Compares two non-negative decimal strings exactly (no floats): -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, '0'));
  const y = BigInt(bi + bf.padEnd(width, '0'));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Asks before money moves; --yes skips it; with no terminal to ask on, refuses. */
export async function confirm(ctx: CliContext, summary: string, question: string, yes: boolean, terms: unknown): Promise<void> {
  if (!ctx.json()) process.stdout.write(summary + '\n');
  if (yes) return;
  if (!process.stdin.isTTY)
    throw new Exit(
      3,
      'Nothing was sent: there is no terminal to ask for a yes. Run it in a terminal, or pass --yes once the terms are right.',
    );
  if (ctx.json()) process.stderr.write(JSON.stringify(terms) + '\n');
  const answer = await ask(`${question} [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new Exit(3, 'Nothing was sent.');
}
