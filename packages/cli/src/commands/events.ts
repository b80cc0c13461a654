// `peerpay events [--after …] [--follow]` (DESIGN §12): what happened to the account, oldest first,
// a page at a time; --follow keeps printing new events as they happen.
import type { Command } from 'commander';
import type { PeerpayClient } from '@peerpay/client';
import type { CliContext } from '../cli-context.js';

interface EventsOptions {
  after?: string;
  limit: string;
  follow?: boolean;
  interval: string;
}

type EventLine = (e: { id: string; type: string; createdAt: string; data: Record<string, unknown> }) => string;

/** One line about an event's resource: amount, currency, status and the other party, as far as it has them. */
function eventSummary(data: Record<string, unknown>): string {
  return [data.direction, data.amount, data.currency, data.status, data.counterpartyHandle ?? data.kind ?? data.endpoint]
    .filter((v) => v !== undefined && v !== null && v !== '')
    .map(String)
    .join(' ');
}

export function eventsCommand(program: Command, ctx: CliContext): void {
  program
    .command('events')
    .description('what happened to your account, oldest first (transfers, deposits, withdrawals, payouts, links); --follow waits for more')
    .option('--after <eventId>', 'only the events after this one (nextCursor of the previous answer)')
    .option('--limit <n>', 'how many per page (1-100)', '20')
    .option('--follow', 'keep printing new events as they happen (Ctrl+C stops); with --json, one JSON event per line')
    .option('--interval <ms>', 'with --follow: how often to ask for new events', '2000')
    .action(async (options: EventsOptions) => {
      const api = ctx.client();
      const json = ctx.json();
      const line: EventLine = (e) =>
        json ? JSON.stringify(e) : [e.createdAt, e.type, eventSummary(e.data), e.id].filter((v) => v !== '').join('  ');
      if (!options.follow) return onePage(ctx, api, options, line);
      return follow(api, options, line);
    });
}

/** One page of events, and the command for the next one when the page is full. */
async function onePage(ctx: CliContext, api: PeerpayClient, options: EventsOptions, line: EventLine): Promise<void> {
  const after = options.after;
  const page = await api.listEvents({ query: { limit: options.limit, ...(after ? { after } : {}) } });
  const lines = page.events.map(line);
  ctx.out(
    page,
    [
      ...(lines.length > 0 ? lines : ['No events.']),
      // Only a full page may have more after it; the next page keeps this one's size.
      ...(page.nextCursor && lines.length >= Number(options.limit)
        ? [`More: peerpay events --after ${page.nextCursor}${options.limit === '20' ? '' : ` --limit ${options.limit}`}`]
        : []),
    ].join('\n'),
  );
}

/** Prints events as they happen, until the process is stopped. */
async function follow(api: PeerpayClient, options: EventsOptions, line: EventLine): Promise<never> {
  let after = options.after;
  const intervalMs = Math.max(200, Number(options.interval) || 2000);
  for (;;) {
    const page = await api.listEvents({ query: { limit: options.limit, ...(after ? { after } : {}) } });
    for (const e of page.events) process.stdout.write(line(e) + '\n');
    if (page.nextCursor) after = page.nextCursor;
    // A full page: more may be waiting now; otherwise wait before asking again.
    if (page.events.length < Number(options.limit)) await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
