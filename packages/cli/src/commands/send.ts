// `peerpay send TO AMOUNT CURRENCY` (DESIGN §12): shows the recipient, amount, currency and fee, and
// sends exactly those terms on the user's yes (--yes for scripts).
import type { Command } from 'commander';
import { describeSent, quoteTransferTerms, sendOnTerms } from '@peerpay/mcp';
import { confirm, requireInstrument, requireTokens } from '../before-asking.js';
import type { CliContext } from '../cli-context.js';
import { methodOption } from './method-option.js';

export function sendCommand(program: Command, ctx: CliContext): void {
  program
    .command('send')
    .description('send money; shows the terms and asks first')
    .argument('<to>', 'recipient: e-mail address or PA- handle')
    .argument('<amount>', 'amount the recipient is sent, e.g. 10.50')
    .argument('<currency>', 'USD, EUR, GBP, JPY, USDC or EURC')
    .addOption(methodOption())
    .option('--note <note>', 'fiat: a message to the recipient')
    .option('-y, --yes', 'do not ask (for scripts)')
    .action(async (to: string, amount: string, currency: string, options: { method?: 'instant' | 'ach'; note?: string; yes?: boolean }) => {
      ctx.movementIn(currency);
      const api = ctx.client();
      const quoted = await quoteTransferTerms(api, { to, amount, currency, paymentMethod: options.method, note: options.note });
      if (quoted.rail === 'stablecoin') await requireTokens(api, quoted.terms.currency, quoted.terms.amount);
      else await requireInstrument(api, options.method ?? 'instant');
      await confirm(ctx, quoted.summary, 'Send?', options.yes === true, quoted.structured);
      const result = await sendOnTerms(api, quoted);
      ctx.out(result, describeSent(result));
    });
}
