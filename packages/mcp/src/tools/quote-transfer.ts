// quote_transfer (DESIGN §12): what a transfer would cost, without sending it: the recipient as
// peerpay names them, the fee and what arrives, on the rail of the currency.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiFor } from '../options.js';
import { ok, run } from '../tool-results.js';
import { quoteTransferTerms } from '../transfer-terms.js';
import { refusalContext, TransferInput } from './inputs.js';

export function registerQuoteTransfer(server: McpServer, api: ApiFor): void {
  server.registerTool(
    'quote_transfer',
    {
      title: 'Quote a transfer',
      description:
        'What sending money would cost, without sending it: the recipient’s handle and first name (or, for a phone number whose account is not in the public directory, only that number), the fee and what arrives. Fiat currencies (USD, EUR, GBP, JPY) quote the fiat rail (fee paid on top), USDC and EURC the stablecoin rail (fee deducted). Show the user these terms before send_money.',
      inputSchema: TransferInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const terms = await quoteTransferTerms(api(extra), args);
        return ok(terms.structured, terms.summary);
      }, refusalContext(args)),
  );
}
