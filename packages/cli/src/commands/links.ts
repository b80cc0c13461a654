// `peerpay links KIND` (DESIGN §12): a private link to open in a browser, to set up a card, bank
// debit or payouts, or to add USDC or EURC (funding, with --amount and --currency).
import type { Command } from 'commander';
import { Exit, type CliContext } from '../cli-context.js';

export function linksCommand(program: Command, ctx: CliContext): void {
  program
    .command('links')
    .description('a private link to open in a browser: card, bank_debit, payout, or funding (--amount, --currency)')
    .argument('<kind>', 'card | bank_debit | payout | funding')
    .option('--amount <amount>', 'funding: amount to add')
    .option('--currency <currency>', 'funding: USDC or EURC', 'USDC')
    .action(async (kind: string, options: { amount?: string; currency: string }) => {
      const api = ctx.client();
      let link: { url: string; expiresAt?: string; expiresIn?: string };
      if (kind === 'card') link = await api.createCardSetupLink();
      else if (kind === 'bank_debit') link = await api.createBankDebitSetupLink();
      else if (kind === 'payout') link = await api.createPayoutSetupLink();
      else if (kind === 'funding') {
        if (options.amount === undefined) throw new Exit(2, 'A funding link needs --amount (and --currency, USDC by default).');
        link = await api.createFundingLink({ body: { amount: options.amount, currency: options.currency } });
      } else throw new Exit(2, `Unknown link kind "${kind}": use card, bank_debit, payout or funding.`);
      ctx.out(link, `Open this link in your browser: ${link.url}\n(expires ${link.expiresAt ?? `in ${link.expiresIn}`})`);
    });
}
