// get_limits (DESIGN §17): the user's effective sending limits, so that an agent can tell its user
// before trying a send or withdrawal that would go over one. Reads GET /account/limits.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiFor } from '../options.js';
import { windowWords } from '../refusals.js';
import { ok, run } from '../tool-results.js';

export interface LimitRow {
  rail: string;
  currency: string;
  window: string;
  limit: string;
  used: string;
  remaining: string;
}

/** One sentence per rail and currency: what is left of each window's limit. */
export function describeLimits(limits: LimitRow[]): string {
  if (limits.length === 0) return 'No sending limits apply to this account.';
  const byCurrency = new Map<string, LimitRow[]>();
  for (const row of limits) {
    const key = `${row.currency} (${row.rail})`;
    byCurrency.set(key, [...(byCurrency.get(key) ?? []), row]);
  }
  const parts = [...byCurrency].map(
    ([key, rows]) =>
      `${key}: ${rows.map((r) => `${r.remaining} of ${r.limit} left in any ${windowWords(r.window)} (${r.used} used)`).join(', ')}`,
  );
  return `Sending limits (outgoing transfers, withdrawals and payouts, fees included): ${parts.join('; ')}.`;
}

export function registerGetLimits(server: McpServer, api: ApiFor): void {
  server.registerTool(
    'get_limits',
    {
      title: 'Sending limits',
      description:
        'The user’s sending limits per rail and currency, over any 24 hours and any 30 days: the limit, what was used and what remains (outgoing transfers, withdrawals and payouts, fees included). ' +
        'Check it before a large send_money or withdraw, and tell the user when an amount would go over a limit instead of trying.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      run(async () => {
        const answer = await api(extra).getAccountLimits();
        return ok(answer, describeLimits(answer.limits));
      }),
  );
}
