// `peerpay history [--rail fiat|stablecoin]` (DESIGN §12): the user's transfers on one rail, newest
// first, a page at a time.
import { Option, type Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** One line per transfer: when, which way, amount, currency, status and the other party. */
function transferLine(t: Record<string, unknown>): string {
  return [
    t.createdAt,
    t.direction ?? '',
    t.amount,
    t.currency,
    t.status,
    t.counterpartyHandle ?? t.recipientHandle ?? t.senderHandle ?? t.address ?? '',
  ]
    .filter((v) => v !== '' && v !== undefined)
    .join('  ');
}

export function historyCommand(program: Command, ctx: CliContext): void {
  program
    .command('history')
    .description('your transfers, newest first')
    .addOption(new Option('--rail <rail>', 'fiat or stablecoin').choices(['fiat', 'stablecoin']).default('fiat'))
    .option('--limit <n>', 'how many (1-100)', '20')
    .option('--cursor <cursor>', 'the next page, from the previous answer')
    .action(async (options: { rail: 'fiat' | 'stablecoin'; limit: string; cursor?: string }) => {
      const api = ctx.client();
      const query = { limit: options.limit, ...(options.cursor ? { cursor: options.cursor } : {}) };
      const page = options.rail === 'fiat' ? await api.listTransfers({ query }) : await api.listStablecoinTransfers({ query });
      const lines = (page.transfers as Record<string, unknown>[]).map(transferLine);
      ctx.out(
        page,
        [
          ...(lines.length > 0 ? lines : ['No transfers.']),
          ...(page.nextCursor ? [`More: peerpay history --rail ${options.rail} --cursor ${page.nextCursor}`] : []),
        ].join('\n'),
      );
    });
}
