// create_link (DESIGN §12): a private, time-limited link for the user's browser, to set up a card,
// bank debit or payouts, or to add USDC or EURC. peerpay never takes card or bank numbers anywhere
// else. A client with url elicitation shows the link to the user itself.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PeerpayClient } from '@peerpay/client';
import * as z from 'zod/v4';
import { elicitationModes, offerLink } from '../elicitation.js';
import { decimalOf } from '../formatting.js';
import type { ApiFor, ToolExtra } from '../options.js';
import { ok, run, toolError } from '../tool-results.js';
import { Amount } from './inputs.js';

type LinkKind = 'card' | 'bank_debit' | 'payout' | 'funding';
type Link = { url: string; expiresAt?: string; expiresIn?: string } & Record<string, unknown>;

const PURPOSE: Record<LinkKind, string> = {
  card: 'set up a card',
  bank_debit: 'set up bank debit',
  payout: 'set up payouts',
  funding: 'add funds',
};

export function registerCreateLink(server: McpServer, api: ApiFor, elicitationTimeoutMs: number): void {
  server.registerTool(
    'create_link',
    {
      title: 'Create a setup or funding link',
      description:
        'A private, time-limited link for the user to open in a browser: card (set up a card for fiat transfers), bank_debit (set up bank debit for ach transfers), payout (set up where received fiat is paid out), funding (buy or deposit USDC/EURC; needs amount and currency). ' +
        'Give the link to the user only; peerpay never asks for card or bank numbers anywhere else.',
      inputSchema: {
        kind: z.enum(['card', 'bank_debit', 'payout', 'funding']),
        amount: Amount.optional().describe('funding only: the amount to add, in major units'),
        currency: z.string().max(16).optional().describe('funding only: USDC or EURC'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      run(async () => {
        const link = await createLink(api(extra), args);
        if (link === null)
          return toolError('invalid_request', 'A funding link needs amount (a positive decimal) and currency (USDC or EURC).');
        return answerLink(server, extra, args.kind, link, elicitationTimeoutMs);
      }),
  );
}

/** The link of that kind; null for a funding link without a positive amount and a currency. */
async function createLink(
  api: PeerpayClient,
  args: { kind: LinkKind; amount?: string | number | undefined; currency?: string | undefined },
): Promise<Link | null> {
  if (args.kind === 'funding') {
    const amount = args.amount === undefined ? null : decimalOf(args.amount);
    if (amount === null || args.currency === undefined) return null;
    return api.createFundingLink({ body: { amount, currency: args.currency } });
  }
  if (args.kind === 'card') return api.createCardSetupLink();
  if (args.kind === 'bank_debit') return api.createBankDebitSetupLink();
  return api.createPayoutSetupLink();
}

/** The link for the model to pass on, or, when the client can show links, offered to the user directly. */
async function answerLink(server: McpServer, extra: ToolExtra, kind: LinkKind, link: Link, timeoutMs: number): Promise<CallToolResult> {
  const purpose = PURPOSE[kind];
  const text = `Open this link to ${purpose}: ${link.url} (expires ${link.expiresAt ?? `in ${link.expiresIn}`}).`;
  if (!elicitationModes(server).url) return ok({ ...link, kind }, text);
  // The client shows the link to the user itself; the answer says whether they chose to open it.
  const answer = await offerLink(extra, `peerpay: open this link to ${purpose}.`, link.url, timeoutMs);
  return ok(
    { ...link, kind, offeredToUser: answer?.action ?? 'failed' },
    `${text} The link was offered to the user directly (${answer?.action ?? 'not shown'}).`,
  );
}
