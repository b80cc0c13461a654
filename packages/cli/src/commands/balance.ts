// `peerpay balance` (DESIGN §12): the fiat balances per currency and the stablecoin balances.
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

export function balanceCommand(program: Command, ctx: CliContext): void {
  program
    .command('balance')
    .description('fiat balances per currency and stablecoin balances')
    .action(async () => {
      const api = ctx.client();
      const [fiat, stablecoin] = await Promise.all([api.getBalance(), api.getStablecoinBalance()]);
      const lines = fiat.balances.map(
        (b) => `  ${b.currency.padEnd(4)} ${b.available}${/^0(\.0+)?$/.test(b.pending) ? '' : `  (pending ${b.pending})`}`,
      );
      ctx.out(
        { fiat: fiat.balances, stablecoin },
        ['Fiat:', ...lines, 'Stablecoin:', `  USDC ${stablecoin.USDC}`, `  EURC ${stablecoin.EURC}`].join('\n'),
      );
    });
}
