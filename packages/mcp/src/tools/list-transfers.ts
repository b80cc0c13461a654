// list_transfers (DESIGN §12): the user's transfers on one rail, newest first, a page at a time.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import type { ApiFor } from '../options.js';
import { ok, run } from '../tool-results.js';

export function registerListTransfers(server: McpServer, api: ApiFor): void {
  server.registerTool(
    'list_transfers',
    {
      title: 'Transfer history',
      description:
        'The user’s transfers, newest first, on one rail: fiat (card and bank debit transfers) or stablecoin (USDC/EURC transfers). Pass nextCursor as cursor for the next page.',
      inputSchema: {
        rail: z.enum(['fiat', 'stablecoin']),
        limit: z.number().int().min(1).max(100).optional().describe('Page size, 1 to 100 (default 20)'),
        cursor: z.string().max(300).optional().describe('nextCursor of the previous page'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const client = api(extra);
        const query = {
          ...(args.limit !== undefined ? { limit: String(args.limit) } : {}),
          ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
        };
        const page = args.rail === 'fiat' ? await client.listTransfers({ query }) : await client.listStablecoinTransfers({ query });
        return ok(
          page,
          `${page.transfers.length} ${args.rail} transfer(s)${page.nextCursor ? '; more with cursor ' + page.nextCursor : ''}.`,
        );
      }),
  );
}
