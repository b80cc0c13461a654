// withdraw (DESIGN §12): sends USDC or EURC to an outside Polygon address (the saved default when
// none is given) on exactly the quoted terms, and only after the user's yes (confirmation-flow.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import type { ConfirmThenMove } from '../confirmation-flow.js';
import type { ApiFor } from '../options.js';
import { run } from '../tool-results.js';
import { describeWithdrawal, quoteWithdrawalTerms, withdrawOnTerms } from '../withdrawal-terms.js';
import { Amount, refusalContext } from './inputs.js';

export function registerWithdraw(server: McpServer, api: ApiFor, confirmThenMove: ConfirmThenMove): void {
  server.registerTool(
    'withdraw',
    {
      title: 'Withdraw stablecoins to a Polygon address',
      description:
        'Sends USDC or EURC from the user’s balance to an outside Polygon address; the 1.49% fee comes out of the amount (minimum 1.00). Without address, the saved default address is used. Never call it before the user has agreed to the amount, currency, fee and address. ' +
        'If your client supports elicitation, the user is asked to confirm here. Otherwise the first call moves nothing and answers the terms and a confirmationId: show them to the user, and only after an explicit yes call withdraw again with the same arguments plus confirmationId (valid 5 minutes, single use).',
      inputSchema: {
        amount: Amount,
        currency: z.string().min(1).max(16).describe('USDC or EURC'),
        address: z.string().max(100).optional().describe('Polygon address (0x and 40 hex digits); omitted: the saved default'),
        confirmationId: z
          .string()
          .max(200)
          .optional()
          .describe('From the previous withdraw answer, after the user said yes to those terms'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      run(async () => {
        const client = api(extra);
        const quoted = await quoteWithdrawalTerms(client, args);
        const execute = (idempotencyKey?: string) => withdrawOnTerms(client, quoted, idempotencyKey);
        return confirmThenMove(extra, {
          terms: { tool: 'withdraw', ...quoted.terms },
          summary: quoted.summary,
          structuredTerms: quoted.structured,
          confirmationId: args.confirmationId,
          question: 'Withdraw this money?',
          execute,
          describe: describeWithdrawal,
        });
      }, refusalContext(args)),
  );
}
