// `peerpay quote TO AMOUNT CURRENCY` (DESIGN §12): what sending would cost, without sending: the
// recipient, the fee and what arrives, on the rail of the currency.
import type { Command } from 'commander';
import { quoteTransferTerms } from '@peerpay/mcp';
import type { CliContext } from '../cli-context.js';
import { methodOption } from './method-option.js';

export function quoteCommand(program: Command, ctx: CliContext): void {
  program
    .command('quote')
    .description('what sending would cost: recipient, fee and what arrives (USD/EUR/GBP/JPY: fiat; USDC/EURC: stablecoin)')
    .argument('<to>', 'recipient: e-mail address or PA- handle')
    .argument('<amount>', 'amount, e.g. 10.50')
    .argument('<currency>', 'USD, EUR, GBP, JPY, USDC or EURC')
    .addOption(methodOption())
    .action(async (to: string, amount: string, currency: string, options: { method?: 'instant' | 'ach' }) => {
      ctx.movementIn(currency);
      const quoted = await quoteTransferTerms(ctx.client(), { to, amount, currency, paymentMethod: options.method });
      ctx.out(quoted.structured, quoted.summary);
    });
}
