// get_balances (DESIGN §12): the fiat balances per currency (available and pending) and the USDC
// and EURC stablecoin balances, in one answer.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiFor } from '../options.js';
import { ok, run } from '../tool-results.js';

export function registerGetBalances(server: McpServer, api: ApiFor): void {
  server.registerTool(
    'get_balances',
    {
      title: 'Balances',
      description:
        'The user’s balances: fiat money received per currency (available and pending) and the USDC and EURC stablecoin balances.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      run(async () => {
        const client = api(extra);
        const [fiat, stablecoin] = await Promise.all([client.getBalance(), client.getStablecoinBalance()]);
        const lines = fiat.balances.map(
          (b) => `${b.currency} ${b.available}${b.pending !== '0' && !/^0\.?0*$/.test(b.pending) ? ` (pending ${b.pending})` : ''}`,
        );
        return ok(
          { fiat: fiat.balances, stablecoin },
          `Fiat: ${lines.join(', ')}. Stablecoin: USDC ${stablecoin.USDC}, EURC ${stablecoin.EURC}.`,
        );
      }),
  );
}
