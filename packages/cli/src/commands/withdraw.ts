// `peerpay withdraw AMOUNT CURRENCY [--address …]` (DESIGN §12): USDC or EURC to a Polygon address
// (the saved one by default); shows the terms and withdraws exactly those on the user's yes.
import type { Command } from 'commander';
import { describeWithdrawal, quoteWithdrawalTerms, withdrawOnTerms } from '@peerpay/mcp';
import { confirm, requireTokens } from '../before-asking.js';
import type { CliContext } from '../cli-context.js';

export function withdrawCommand(program: Command, ctx: CliContext): void {
  program
    .command('withdraw')
    .description('send USDC or EURC to a Polygon address; shows the terms and asks first')
    .argument('<amount>', 'amount before the 1.49% fee, e.g. 25')
    .argument('<currency>', 'USDC or EURC')
    .option('--address <address>', 'Polygon address (default: your saved withdrawal address)')
    .option('-y, --yes', 'do not ask (for scripts)')
    .action(async (amount: string, currency: string, options: { address?: string; yes?: boolean }) => {
      ctx.movementIn(currency);
      const api = ctx.client();
      const quoted = await quoteWithdrawalTerms(api, { amount, currency, address: options.address });
      await requireTokens(api, quoted.terms.currency, quoted.terms.amount);
      await confirm(ctx, quoted.summary, 'Withdraw?', options.yes === true, quoted.structured);
      const result = await withdrawOnTerms(api, quoted);
      ctx.out(result, describeWithdrawal(result));
    });
}
