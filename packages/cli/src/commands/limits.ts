// `peerpay limits` (DESIGN §17): the caller's effective sending limits per rail and currency, over
// any 24 hours and any 30 days, as a table (or the API's JSON with --json).
import type { Command } from 'commander';
import { windowWords, type LimitRow } from '@peerpay/mcp';
import type { CliContext } from '../cli-context.js';

/** Columns padded to their widest cell; amounts right-aligned so that their digits line up. */
export function limitsTable(limits: LimitRow[]): string {
  if (limits.length === 0) return 'No sending limits apply to this account.';
  const header = ['RAIL', 'CURRENCY', 'WINDOW', 'LIMIT', 'USED', 'REMAINING'];
  const rows = limits.map((l) => [l.rail, l.currency, windowWords(l.window), l.limit, l.used, l.remaining]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i >= 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    line(header),
    ...rows.map(line),
    '',
    'Limits count what you send, withdraw and are paid out, fees included, over a rolling window.',
  ].join('\n');
}

export function limitsCommand(program: Command, ctx: CliContext): void {
  program
    .command('limits')
    .description('your sending limits per currency over 24 hours and 30 days: the limit, what you used and what remains')
    .action(async () => {
      const answer = await ctx.client().getAccountLimits();
      ctx.out(answer, limitsTable(answer.limits));
    });
}
