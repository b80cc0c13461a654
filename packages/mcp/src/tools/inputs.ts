// What the tools' inputs share: an amount as the model may send it, the fields of a transfer
// (quote_transfer and send_money take the same), and the currency a refusal of a movement is about.
import * as z from 'zod/v4';

export const Amount = z
  .union([z.string(), z.number()])
  .describe('Amount in major units as a decimal string, e.g. "10.50" (a JSON number is read through its shortest decimal form)');

export const TransferInput = {
  to: z.string().min(1).max(254).describe('The recipient: e-mail address or PA- handle (stablecoins also take an E.164 phone number)'),
  amount: Amount,
  currency: z.string().min(1).max(16).describe('USD, EUR, GBP or JPY (fiat rail) or USDC, EURC (stablecoin rail)'),
  paymentMethod: z
    .enum(['instant', 'ach'])
    .optional()
    .describe('Fiat only: instant (card, the default) or ach (bank debit, 3 business days)'),
};

/** What a refusal of a movement is about: its currency, as the user wrote it. */
export function refusalContext(args: { currency: string }): { currency: string } {
  return { currency: args.currency.trim().toUpperCase() };
}
