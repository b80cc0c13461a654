// get_deposit_address (DESIGN §12): the user's Polygon address for USDC and EURC from outside
// peerpay; deposits to it are credited automatically.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiFor } from '../options.js';
import { ok, run } from '../tool-results.js';

export function registerGetDepositAddress(server: McpServer, api: ApiFor): void {
  server.registerTool(
    'get_deposit_address',
    {
      title: 'Deposit address',
      description:
        'The user’s Polygon address for receiving USDC or EURC from an outside wallet or exchange; deposits are credited automatically. Tell the user to send only USDC or EURC on Polygon.',
      inputSchema: {},
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      run(async () => {
        const address = await api(extra).getDepositAddress({ query: { chain: 'MATIC' } });
        return ok(address, `Deposit address on Polygon: ${address.address}. Send only USDC or EURC on Polygon to it.`);
      }),
  );
}
