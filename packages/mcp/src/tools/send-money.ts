// send_money (DESIGN §12): sends money to another peerpay user on exactly the quoted terms, and only
// after the user's yes (confirmation-flow.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import type { ConfirmThenMove } from '../confirmation-flow.js';
import type { ApiFor } from '../options.js';
import { run } from '../tool-results.js';
import { describeSent, quoteTransferTerms, sendOnTerms } from '../transfer-terms.js';
import { refusalContext, TransferInput } from './inputs.js';

export function registerSendMoney(server: McpServer, api: ApiFor, confirmThenMove: ConfirmThenMove): void {
  server.registerTool(
    'send_money',
    {
      title: 'Send money',
      description:
        'Sends money to another peerpay user. Never call it before the user has agreed to the recipient, amount, currency and fee (use quote_transfer first). ' +
        'If your client supports elicitation, the user is asked to confirm here and money moves only on their yes. ' +
        'Otherwise the first call moves nothing and answers the terms and a confirmationId: show the terms to the user, ask for an explicit yes, and only then call send_money again with exactly the same arguments plus confirmationId (valid 5 minutes, single use). Never confirm on the user’s behalf.',
      inputSchema: {
        ...TransferInput,
        note: z.string().max(500).optional().describe('Fiat only: a message to the recipient'),
        confirmationId: z
          .string()
          .max(200)
          .optional()
          .describe('From the previous send_money answer, after the user said yes to those terms'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const client = api(extra);
        const quoted = await quoteTransferTerms(client, args);
        const terms = { tool: 'send_money', ...quoted.terms };
        const execute = (idempotencyKey?: string) => sendOnTerms(client, quoted, idempotencyKey);
        return confirmThenMove(extra, {
          terms,
          summary: quoted.summary,
          structuredTerms: quoted.structured,
          confirmationId: args.confirmationId,
          question: 'Send this money?',
          execute,
          describe: describeSent,
        });
      }, refusalContext(args)),
  );
}
