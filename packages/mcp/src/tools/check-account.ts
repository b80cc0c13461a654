// check_account (DESIGN §12): whether someone has a peerpay account, by e-mail address or handle,
// so that the agent confirms whom the user means before quoting or sending.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import { quoted } from '../formatting.js';
import type { ApiFor } from '../options.js';
import { ok, run, toolError } from '../tool-results.js';

export function registerCheckAccount(server: McpServer, api: ApiFor): void {
  server.registerTool(
    'check_account',
    {
      title: 'Check whether someone has a peerpay account',
      description:
        'Looks up a peerpay account by e-mail address or PA- handle (give exactly one) and answers whether it exists, with the first name and handle. Use it to confirm who the user means before quoting or sending.',
      inputSchema: {
        email: z.string().max(254).optional().describe('E-mail address'),
        handle: z.string().max(64).optional().describe('Handle: PA- followed by 8 characters'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        if ((args.email === undefined) === (args.handle === undefined))
          return toolError('invalid_request', 'Give exactly one of email or handle.');
        const query = args.email !== undefined ? { email: args.email } : { handle: args.handle! };
        const found = await api(extra).checkAccount({ query });
        const handle = found.agentHandle ?? found.handle;
        const text = found.exists
          ? `A peerpay account exists: handle ${handle}${found.firstName ? `, first name ${quoted(found.firstName)}` : ''}.`
          : 'No peerpay account has that e-mail or handle.';
        return ok(found, text);
      }),
  );
}
