// peerpay's MCP server: the tools of DESIGN §12 over the peerpay client, one implementation for
// both transports. The service serves it at POST /mcp (its client calls the service in-process
// with the caller's key); `peerpay mcp` serves it over stdio (its client calls PEERPAY_URL).
//
// send_money and withdraw never move money on their first call unless the user confirmed through
// the client: by elicitation when the client declared it, otherwise by a confirmationId bound to
// the account and the exact terms (confirmation-flow.ts, confirmations.ts). One module per tool
// under tools/ (DESIGN §21).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { confirmationFlow } from './confirmation-flow.js';
import type { PeerpayMcpOptions } from './options.js';
import { registerCheckAccount } from './tools/check-account.js';
import { registerCreateLink } from './tools/create-link.js';
import { registerGetBalances } from './tools/get-balances.js';
import { registerGetDepositAddress } from './tools/get-deposit-address.js';
import { registerGetLimits } from './tools/get-limits.js';
import { registerListTransfers } from './tools/list-transfers.js';
import { registerQuoteTransfer } from './tools/quote-transfer.js';
import { registerSendMoney } from './tools/send-money.js';
import { registerWithdraw } from './tools/withdraw.js';

export * from './confirmations.js';
export { decimalOf } from './formatting.js';
export type { PeerpayMcpOptions, ToolExtra } from './options.js';
export { complianceNextStep, describeLimit, retryTime, sanctionedRefusedWithdrawal, windowWords, type RefusalContext } from './refusals.js';
export { NEXT_STEP, TermsError } from './tool-results.js';
export type { LimitRow } from './tools/get-limits.js';
export { describeSent, quoteTransferTerms, sendOnTerms, type TransferArgs, type TransferTerms } from './transfer-terms.js';
export { describeWithdrawal, quoteWithdrawalTerms, withdrawOnTerms, type WithdrawalTerms } from './withdrawal-terms.js';

const INSTRUCTIONS =
  'peerpay moves money between people and agents: fiat (USD, EUR, GBP, JPY; by card or bank debit) and stablecoins (USDC, EURC on Polygon). ' +
  'Before any transfer or withdrawal, tell the user the recipient, amount, currency and fee (quote_transfer) and get their explicit yes. ' +
  'send_money and withdraw ask the user themselves when the client supports it; otherwise their first call returns the terms and a confirmationId, ' +
  'and money moves only when the user has said yes and the same call is made again with that confirmationId. ' +
  'Sending has limits per currency (get_limits shows them and what remains); a refusal (a limit, a frozen account, a sanctioned address) comes before any question to the user: tell the user what it says.';

export function createPeerpayMcpServer(options: PeerpayMcpOptions): McpServer {
  const server = new McpServer({ name: 'peerpay', title: 'peerpay', version: options.version ?? '0.1.0' }, { instructions: INSTRUCTIONS });
  const elicitationTimeoutMs = options.elicitationTimeoutMs ?? 10 * 60_000;
  const confirmThenMove = confirmationFlow({
    server,
    confirmations: options.confirmations,
    owner: options.owner,
    elicitationTimeoutMs,
  });
  // The order of tools/list.
  registerCheckAccount(server, options.api);
  registerGetBalances(server, options.api);
  registerGetDepositAddress(server, options.api);
  registerQuoteTransfer(server, options.api);
  registerSendMoney(server, options.api, confirmThenMove);
  registerWithdraw(server, options.api, confirmThenMove);
  registerGetLimits(server, options.api);
  registerCreateLink(server, options.api, elicitationTimeoutMs);
  registerListTransfers(server, options.api);
  return server;
}
