// peerpay's MCP server: the tools of DESIGN §12 over the peerpay client, one implementation for
// both transports. The service serves it at POST /mcp (its client calls the service in-process
// with the caller's key); `peerpay mcp` serves it over stdio (its client calls PEERPAY_URL).
//
// send_money and withdraw never move money on their first call unless the user confirmed through
// the client: by elicitation when the client declared it, otherwise by a confirmationId bound to
// the account and the exact terms (confirmations.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { PeerpayError, type PeerpayClient } from '@peerpay/client';
import * as z from 'zod/v4';
import { hashTerms, idempotencyKeyOf, type ConfirmationStore } from './confirmations.js';
import { ok, run, TermsError, toolError } from './tool-results.js';
import { registerGetLimits } from './tools/get-limits.js';

export * from './confirmations.js';
export { NEXT_STEP, TermsError } from './tool-results.js';
export type { LimitRow } from './tools/get-limits.js';
export { complianceNextStep, describeLimit, retryTime, sanctionedRefusedWithdrawal, windowWords, type RefusalContext } from './refusals.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface PeerpayMcpOptions {
  /** The peerpay client for a tool call (the service makes one per request, with its caller's key). */
  api: (extra: ToolExtra) => PeerpayClient;
  confirmations: ConfirmationStore;
  /** Whom confirmations are bound to: the account (id or handle) behind the key. */
  owner: (extra: ToolExtra) => string | Promise<string>;
  /** How long the server waits for the user's answer to an elicitation (default 10 minutes). */
  elicitationTimeoutMs?: number;
  version?: string;
}

const TOKENS = new Set(['USDC', 'EURC']);
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

const Amount = z
  .union([z.string(), z.number()])
  .describe('Amount in major units as a decimal string, e.g. "10.50" (a JSON number is read through its shortest decimal form)');

/** What a refusal of a movement is about: its currency, as the user wrote it. */
function refusalContext(args: { currency: string }): { currency: string } {
  return { currency: args.currency.trim().toUpperCase() };
}

export function createPeerpayMcpServer(options: PeerpayMcpOptions): McpServer {
  const server = new McpServer(
    { name: 'peerpay', title: 'peerpay', version: options.version ?? '0.1.0' },
    {
      instructions:
        'peerpay moves money between people and agents: fiat (USD, EUR, GBP, JPY; by card or bank debit) and stablecoins (USDC, EURC on Polygon). ' +
        'Before any transfer or withdrawal, tell the user the recipient, amount, currency and fee (quote_transfer) and get their explicit yes. ' +
        'send_money and withdraw ask the user themselves when the client supports it; otherwise their first call returns the terms and a confirmationId, ' +
        'and money moves only when the user has said yes and the same call is made again with that confirmationId. ' +
        'Sending has limits per currency (get_limits shows them and what remains); a refusal (a limit, a frozen account, a sanctioned address) comes before any question to the user: tell the user what it says.',
    },
  );
  const elicitationTimeoutMs = options.elicitationTimeoutMs ?? 10 * 60_000;

  function elicitationModes(): { form: boolean; url: boolean } {
    const elicitation = server.server.getClientCapabilities()?.elicitation as { form?: object; url?: object } | undefined;
    if (!elicitation) return { form: false, url: false };
    // An empty capability object is form mode (the protocol's earlier revision).
    return { form: elicitation.form !== undefined || Object.keys(elicitation).length === 0, url: elicitation.url !== undefined };
  }

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
        const found = await options.api(extra).checkAccount({ query });
        const handle = found.agentHandle ?? found.handle;
        const text = found.exists
          ? `A peerpay account exists: handle ${handle}${found.firstName ? `, first name ${quoted(found.firstName)}` : ''}.`
          : 'No peerpay account has that e-mail or handle.';
        return ok(found, text);
      }),
  );

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
        const api = options.api(extra);
        const [fiat, stablecoin] = await Promise.all([api.getBalance(), api.getStablecoinBalance()]);
        const lines = fiat.balances.map(
          (b) => `${b.currency} ${b.available}${b.pending !== '0' && !/^0\.?0*$/.test(b.pending) ? ` (pending ${b.pending})` : ''}`,
        );
        return ok(
          { fiat: fiat.balances, stablecoin },
          `Fiat: ${lines.join(', ')}. Stablecoin: USDC ${stablecoin.USDC}, EURC ${stablecoin.EURC}.`,
        );
      }),
  );

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
        const address = await options.api(extra).getDepositAddress({ query: { chain: 'MATIC' } });
        return ok(address, `Deposit address on Polygon: ${address.address}. Send only USDC or EURC on Polygon to it.`);
      }),
  );

  const QuoteInput = {
    to: z.string().min(1).max(254).describe('The recipient: e-mail address or PA- handle (stablecoins also take an E.164 phone number)'),
    amount: Amount,
    currency: z.string().min(1).max(16).describe('USD, EUR, GBP or JPY (fiat rail) or USDC, EURC (stablecoin rail)'),
    paymentMethod: z
      .enum(['instant', 'ach'])
      .optional()
      .describe('Fiat only: instant (card, the default) or ach (bank debit, 3 business days)'),
  };

  server.registerTool(
    'quote_transfer',
    {
      title: 'Quote a transfer',
      description:
        'What sending money would cost, without sending it: the recipient’s handle and first name (or, for a phone number whose account is not in the public directory, only that number), the fee and what arrives. Fiat currencies (USD, EUR, GBP, JPY) quote the fiat rail (fee paid on top), USDC and EURC the stablecoin rail (fee deducted). Show the user these terms before send_money.',
      inputSchema: QuoteInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const terms = await quoteTransferTerms(options.api(extra), args);
        return ok(terms.structured, terms.summary);
      }, refusalContext(args)),
  );

  server.registerTool(
    'send_money',
    {
      title: 'Send money',
      description:
        'Sends money to another peerpay user. Never call it before the user has agreed to the recipient, amount, currency and fee (use quote_transfer first). ' +
        'If your client supports elicitation, the user is asked to confirm here and money moves only on their yes. ' +
        'Otherwise the first call moves nothing and answers the terms and a confirmationId: show the terms to the user, ask for an explicit yes, and only then call send_money again with exactly the same arguments plus confirmationId (valid 5 minutes, single use). Never confirm on the user’s behalf.',
      inputSchema: {
        ...QuoteInput,
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
        const api = options.api(extra);
        const quoted = await quoteTransferTerms(api, args);
        const terms = { tool: 'send_money', ...quoted.terms };
        const execute = (idempotencyKey?: string) => sendOnTerms(api, quoted, idempotencyKey);
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
        const api = options.api(extra);
        const quoted = await quoteWithdrawalTerms(api, args);
        const execute = (idempotencyKey?: string) => withdrawOnTerms(api, quoted, idempotencyKey);
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

  registerGetLimits(server, options.api);

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
        const api = options.api(extra);
        let link: { url: string; expiresAt?: string; expiresIn?: string } & Record<string, unknown>;
        if (args.kind === 'funding') {
          const amount = args.amount === undefined ? null : decimalOf(args.amount);
          if (amount === null || args.currency === undefined)
            return toolError('invalid_request', 'A funding link needs amount (a positive decimal) and currency (USDC or EURC).');
          link = await api.createFundingLink({ body: { amount, currency: args.currency } });
        } else if (args.kind === 'card') link = await api.createCardSetupLink();
        else if (args.kind === 'bank_debit') link = await api.createBankDebitSetupLink();
        else link = await api.createPayoutSetupLink();
        const purpose = { card: 'set up a card', bank_debit: 'set up bank debit', payout: 'set up payouts', funding: 'add funds' }[
          args.kind
        ];
        const text = `Open this link to ${purpose}: ${link.url} (expires ${link.expiresAt ?? `in ${link.expiresIn}`}).`;
        if (elicitationModes().url) {
          // The client shows the link to the user itself; the answer says whether they chose to open it.
          const answer = await extra
            .sendRequest(
              {
                method: 'elicitation/create',
                params: {
                  mode: 'url',
                  message: `peerpay: open this link to ${purpose}.`,
                  url: link.url,
                  elicitationId: `link-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
                },
              },
              ElicitResultSchema,
              { timeout: elicitationTimeoutMs },
            )
            .catch(() => null);
          return ok(
            { ...link, kind: args.kind, offeredToUser: answer?.action ?? 'failed' },
            `${text} The link was offered to the user directly (${answer?.action ?? 'not shown'}).`,
          );
        }
        return ok({ ...link, kind: args.kind }, text);
      }),
  );

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
        const api = options.api(extra);
        const query = {
          ...(args.limit !== undefined ? { limit: String(args.limit) } : {}),
          ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
        };
        const page = args.rail === 'fiat' ? await api.listTransfers({ query }) : await api.listStablecoinTransfers({ query });
        return ok(
          page,
          `${page.transfers.length} ${args.rail} transfer(s)${page.nextCursor ? '; more with cursor ' + page.nextCursor : ''}.`,
        );
      }),
  );

  interface Movement<T> {
    terms: Record<string, string | null>;
    summary: string;
    structuredTerms: object;
    confirmationId: string | undefined;
    question: string;
    execute: (idempotencyKey?: string) => Promise<T>;
    describe: (result: T) => string;
  }

  /** The confirmation rules of DESIGN §12, then the movement. */
  async function confirmThenMove<T extends object>(extra: ToolExtra, m: Movement<T>): Promise<CallToolResult> {
    const modes = elicitationModes();
    if (modes.form) {
      const answer = await extra
        .sendRequest(
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `${m.summary}\n\n${m.question}`,
              requestedSchema: {
                type: 'object',
                properties: { confirm: { type: 'boolean', title: m.question, description: m.summary } },
                required: ['confirm'],
              },
            },
          },
          ElicitResultSchema,
          { timeout: elicitationTimeoutMs },
        )
        .catch((error: unknown) => error as Error);
      if (answer instanceof Error)
        return toolError('confirmation_failed', `The user could not be asked (${answer.message}); nothing was moved.`);
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        const said = answer.action === 'accept' ? 'answered no' : answer.action === 'decline' ? 'declined' : 'cancelled';
        return ok({ status: 'not_confirmed', action: answer.action, terms: m.structuredTerms }, `The user ${said}. Nothing was moved.`);
      }
      return moved(m, await m.execute());
    }

    const owner = await options.owner(extra);
    const termsHash = hashTerms(m.terms);
    if (m.confirmationId === undefined) {
      const confirmation = await options.confirmations.create({ owner, termsHash });
      return ok(
        {
          status: 'confirmation_required',
          confirmationId: confirmation.id,
          expiresAt: confirmation.expiresAt.toISOString(),
          terms: m.structuredTerms,
        },
        `Nothing has been moved yet. ${m.summary}\nAsk the user to confirm these terms. Only if they explicitly say yes, call this tool again with the same arguments and confirmationId "${confirmation.id}" (valid until ${confirmation.expiresAt.toISOString()}).`,
      );
    }
    const claim = await options.confirmations.claim({ id: m.confirmationId, owner, termsHash });
    if (claim !== 'claimed') {
      const detail = {
        not_found: 'No such confirmation for this account; nothing was moved.',
        expired: 'The confirmation expired (they last 5 minutes); nothing was moved.',
        used: 'The confirmation was used already; nothing more was moved.',
        terms_changed: 'The terms are not those the confirmation was given for; nothing was moved.',
      }[claim];
      return toolError(`confirmation_${claim}`, detail);
    }
    try {
      // The key follows from the confirmation: however often this call is repeated, money moves once.
      return moved(m, await m.execute(idempotencyKeyOf(m.confirmationId)));
    } catch (error) {
      // Unknown outcome: the same confirmationId may be sent again; its key makes the retry a replay.
      if (error instanceof PeerpayError && (error.status === 0 || error.status >= 500 || error.code === 'idempotency_key_in_use')) {
        await options.confirmations.release({ id: m.confirmationId, owner });
      }
      throw error;
    }
  }

  function moved<T extends object>(m: Movement<T>, result: T): CallToolResult {
    return ok(result, m.describe(result));
  }

  return server;
}

export interface TransferArgs {
  to: string;
  amount: string | number;
  currency: string;
  paymentMethod?: 'instant' | 'ach' | undefined;
  note?: string | undefined;
}

/** The exact terms of a transfer, as confirmed and as sent. */
export interface TransferTerms {
  rail: 'fiat' | 'stablecoin';
  terms: {
    rail: 'fiat' | 'stablecoin';
    /** Null when the recipient was named by a phone number and keeps its handle private. */
    recipientHandle: string | null;
    /** The phone number the transfer goes to, when the service did not name the account. */
    recipientPhone: string | null;
    amount: string;
    currency: string;
    paymentMethod: string | null;
    note: string | null;
  };
  /** The quote as the service answered it, with the recipient's name and handle. */
  structured: Record<string, unknown>;
  /** One paragraph for the user: recipient, amount, currency, fee and what arrives. */
  summary: string;
}

/**
 * The recipient as peerpay shows it: the handle, with the account's first name beside it in quotes
 * (a name is the account holder's words, not peerpay's), or the phone number the user gave when the
 * service keeps that account's handle private.
 */
function recipientText(recipient: { handle: string | null; firstName: string | null; phone?: string | null }): string {
  if (recipient.handle === null) return `the account with phone number ${quoted(recipient.phone ?? '')}`;
  return recipient.firstName ? `${quoted(recipient.firstName)} (handle ${recipient.handle})` : `handle ${recipient.handle}`;
}

/** The recipient, fee and what arrives, from the service's own quote on the rail of the currency. */
export async function quoteTransferTerms(api: PeerpayClient, args: TransferArgs): Promise<TransferTerms> {
  const amount = decimalOf(args.amount);
  if (amount === null) throw new TermsError('invalid_amount', 'The amount must be a positive decimal number such as "10" or "10.50".');
  const currency = args.currency.trim().toUpperCase();
  const note = args.note ?? null;
  if (TOKENS.has(currency)) {
    if (args.paymentMethod !== undefined)
      throw new TermsError('invalid_field', 'paymentMethod is for fiat currencies only; leave it out for USDC or EURC.');
    if (note !== null) throw new TermsError('invalid_field', 'A note can be sent with fiat transfers only; leave it out for USDC or EURC.');
    return stablecoinTerms(api, args.to, amount, currency);
  }
  const recipient = await api.lookupAgent({ query: args.to.includes('@') ? { email: args.to.trim() } : { handle: args.to.trim() } });
  const q = await api.quoteTransfer({
    query: { recipientHandle: recipient.handle, amount, currency, ...(args.paymentMethod ? { paymentMethod: args.paymentMethod } : {}) },
  });
  const who = recipientText({ handle: q.recipientHandle, firstName: recipient.firstName ?? null });
  // The note is the sender's own text: quoted, so that it reads as theirs, never as peerpay's terms.
  const noteText = note !== null ? ` The note to the recipient reads ${quoted(note)}.` : '';
  const how = q.paymentMethod === 'ach' ? 'by bank debit (settles in 3 business days)' : 'by card';
  return {
    rail: 'fiat',
    terms: {
      rail: 'fiat',
      recipientHandle: q.recipientHandle,
      recipientPhone: null,
      amount: q.amount,
      currency: q.currency,
      paymentMethod: q.paymentMethod,
      note,
    },
    structured: {
      rail: 'fiat',
      recipient: { handle: q.recipientHandle, firstName: recipient.firstName ?? null },
      ...q,
      ...(note !== null ? { note } : {}),
    },
    summary: `Send ${q.amount} ${q.currency} to ${who} ${how}. Fee ${q.fee} ${q.currency} (${q.feeRate}) on top: you pay ${q.totalDeducted} ${q.currency}; the recipient receives ${q.amount} ${q.currency}.${noteText}`,
  };
}

/** The stablecoin rail's terms: the service's quote, and the recipient's first name when it names the account. */
async function stablecoinTerms(api: PeerpayClient, to: string, amount: string, currency: string): Promise<TransferTerms> {
  const q = await api.quoteAgentTransfer({ query: { to, amount, currency } });
  const handle = q.recipientHandle ?? null;
  const phone = handle === null ? to.trim() : null;
  const name = handle === null ? null : await firstName(api, handle);
  const who = recipientText({ handle, firstName: name, phone });
  return {
    rail: 'stablecoin',
    terms: {
      rail: 'stablecoin',
      recipientHandle: handle,
      recipientPhone: phone,
      amount: decimalOf(q.amount)!,
      currency: q.currency,
      paymentMethod: null,
      note: null,
    },
    structured: { rail: 'stablecoin', recipient: handle === null ? { phone } : { handle, firstName: name }, ...q },
    summary: `Send ${q.amount} ${q.currency} to ${who}. Fee ${q.fee} ${q.currency} (${q.feeRate}) comes out of it; the recipient receives ${q.recipientReceives} ${q.currency}.`,
  };
}

/** Sends exactly the quoted terms (to the quoted handle, or the phone number when the quote named no handle). */
export function sendOnTerms(api: PeerpayClient, quoted: TransferTerms, idempotencyKey?: string) {
  const t = quoted.terms;
  const key = idempotencyKey ? { idempotencyKey } : {};
  return t.rail === 'fiat'
    ? api.createTransfer({
        body: {
          recipientHandle: t.recipientHandle!,
          amount: t.amount,
          currency: t.currency,
          paymentMethod: t.paymentMethod as 'instant' | 'ach',
          ...(t.note !== null ? { note: t.note } : {}),
        },
        ...key,
      })
    : api.createAgentTransfer({ body: { to: (t.recipientHandle ?? t.recipientPhone)!, amount: t.amount, currency: t.currency }, ...key });
}

export interface WithdrawalTerms {
  terms: { amount: string; currency: string; address: string };
  structured: Record<string, unknown>;
  summary: string;
}

export async function quoteWithdrawalTerms(
  api: PeerpayClient,
  args: { amount: string | number; currency: string; address?: string | undefined },
): Promise<WithdrawalTerms> {
  const amount = decimalOf(args.amount);
  if (amount === null) throw new TermsError('invalid_amount', 'The amount must be a positive decimal number such as "5" or "5.50".');
  const q = await api.quoteWithdrawal({
    query: { amount, currency: args.currency, ...(args.address !== undefined ? { address: args.address } : {}) },
  });
  return {
    terms: { amount: decimalOf(q.gross)!, currency: q.currency, address: q.address },
    structured: q,
    summary: `Withdraw ${q.gross} ${q.currency} to ${q.address} on Polygon. Fee ${q.fee} ${q.currency} (${q.feeRate}); ${q.net} ${q.currency} arrives.`,
  };
}

/** Withdraws exactly the quoted terms (to the quoted address, also when it was the default). */
export function withdrawOnTerms(api: PeerpayClient, quoted: WithdrawalTerms, idempotencyKey?: string) {
  const t = quoted.terms;
  return api.createWithdrawal({
    body: { amount: t.amount, currency: t.currency, address: t.address },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
}

async function firstName(api: PeerpayClient, handle: string): Promise<string | null> {
  try {
    return (await api.lookupStablecoinRecipient({ query: { handle } })).firstName ?? null;
  } catch {
    return null;
  }
}

export function describeSent(result: object): string {
  const r = result as {
    transfer?: { amount: string; currency: string; fee: string; status: string; recipientHandle: string };
    amount?: number;
    currency?: string;
    status?: string;
    recipientHandle?: string;
    recipientAmount?: number;
    fee?: number;
  };
  if (r.transfer)
    return `Sent ${r.transfer.amount} ${r.transfer.currency} to ${r.transfer.recipientHandle} (fee ${r.transfer.fee}); status ${r.transfer.status}.`;
  return `Sent ${r.amount} ${r.currency} to ${r.recipientHandle} (fee ${r.fee}, they receive ${r.recipientAmount}); status ${r.status}.`;
}

export function describeWithdrawal(result: object): string {
  const w = result as {
    gross: number;
    net: number;
    fee: number;
    currency: string;
    address: string;
    status: string;
    /** null while the withdrawal waits for peerpay's hot wallet to hold the tokens. */
    txId: string | null;
    note?: string;
  };
  const transaction = w.txId === null ? 'not sent yet (waiting for peerpay to send it)' : `transaction ${w.txId}`;
  return `Withdrawal of ${w.gross} ${w.currency} to ${w.address}: ${w.net} ${w.currency} (fee ${w.fee}), status ${w.status}, ${transaction}.${w.note ? ` ${w.note}` : ''}`;
}

/** A positive decimal string from a string or a JSON number (through its shortest form); null otherwise. */
export function decimalOf(value: string | number): string | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (!DECIMAL.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  const result = trimmed ? `${whole}.${trimmed}` : whole!;
  return /^0(\.0*)?$/.test(result) ? null : result;
}

/** User-supplied text (a name, a note, a phone number) as a JSON string: in quotes, with any quote inside escaped. */
function quoted(text: string): string {
  return JSON.stringify(text);
}
