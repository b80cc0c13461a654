// Internal stablecoin transfers, by `to` (POST /agent/transfer) or by recipientEmail (POST
// /stablecoin/transfer), and their fee quote. Registered from stablecoin-routes.ts.
import { toJsonNumber } from '../../money/amount.js';
import { emailOf, recipientKeyOf, recipientQueryOf } from '../../stablecoin/recipients.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyedRequest, SendOutcome, SentStablecoinTransfer } from '../../stablecoin/stablecoin-transfer-service.js';
import { sendStoredAnswer } from '../plugins/idempotency.js';
import type { StablecoinTransfers } from '../../stablecoin/stablecoin-transfers.js';
import { netOf } from '../../stablecoin/stablecoin-transfer.js';
import { callerOf } from '../plugins/auth.js';
import { IdempotencyHeaders } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import {
  AgentTransferBody,
  QuoteQuery,
  QuoteResponse,
  StablecoinTransferBody,
  StablecoinTransferResponse,
} from '../schemas/stablecoin-schemas.js';
import type { App } from '../types.js';

/** What these routes use: the transfer and its quote. */
export type StablecoinTransferRoutesDeps = Pick<StablecoinTransfers, 'send' | 'quote'>;

const TRANSFER_CODES = [
  'account_frozen',
  'invalid_email',
  'invalid_amount',
  'amount_too_small',
  'amount_too_large',
  'unsupported_currency',
  'self_transfer',
  'insufficient_balance',
  'recipient_not_found',
  'limit_exceeded',
] as const;

const TRANSFER_ERRORS =
  'The smallest transfer is 0.01 and every fee is at least 0.000001. Errors: 400 `invalid_request` (malformed input), `invalid_amount` (not > 0, more than 6 decimals), `amount_too_small` (under 0.01; `minimum` names it as a decimal string), `amount_too_large`, `unsupported_currency`, `self_transfer`, `insufficient_balance`; 404 `recipient_not_found`; 422 `idempotency_key_reused`; 429 `limit_exceeded` (over a 24-hour or 30-day limit on what the account sends, fee included; `limit`, `window` and `remaining` say which, Retry-After when it fits again; `GET /account/limits` shows them).';

export function stablecoinTransferRoutes(app: App, transfers: StablecoinTransferRoutesDeps): void {
  agentTransferRoute(app, transfers);
  emailTransferRoute(app, transfers);
  quoteRoute(app, transfers);
}

function agentTransferRoute(app: App, transfers: StablecoinTransferRoutesDeps): void {
  app.post(
    '/agent/transfer',
    operation({
      operationId: 'createAgentTransfer',
      tag: 'stablecoin',
      summary: 'Send USDC or EURC to a user by e-mail, handle or phone; the 1.49% fee comes out of the amount',
      description: `Moves the caller’s balance at once: the recipient receives amount minus fee. ${TRANSFER_ERRORS}`,
      auth: 'required',
      readsBody: true,
      idempotent: true,
      idempotencyInTransaction: true,
      headers: IdempotencyHeaders,
      body: AgentTransferBody,
      responses: { 200: StablecoinTransferResponse },
      errors: [...TRANSFER_CODES, 'invalid_field'],
    }),
    async (request, reply) => {
      const caller = callerOf(request);
      const outcome = await transfers.send({
        senderAccountId: caller.accountId,
        senderHandle: caller.handle,
        to: recipientQueryOf(request.body.to),
        amount: request.body.amount,
        currency: request.body.currency,
        idempotency: keyedRequest(request),
      });
      return answer(reply, outcome);
    },
  );
}

function emailTransferRoute(app: App, transfers: StablecoinTransferRoutesDeps): void {
  app.post(
    '/stablecoin/transfer',
    operation({
      operationId: 'createStablecoinTransfer',
      tag: 'stablecoin',
      summary: 'Send USDC or EURC to a user by e-mail; the 1.49% fee comes out of the amount',
      description: `The same transfer as POST /agent/transfer, addressed by e-mail. ${TRANSFER_ERRORS}`,
      auth: 'required',
      readsBody: true,
      idempotent: true,
      idempotencyInTransaction: true,
      headers: IdempotencyHeaders,
      body: StablecoinTransferBody,
      responses: { 200: StablecoinTransferResponse },
      errors: TRANSFER_CODES,
    }),
    async (request, reply) => {
      const caller = callerOf(request);
      const outcome = await transfers.send({
        senderAccountId: caller.accountId,
        senderHandle: caller.handle,
        to: { email: emailOf(request.body.recipientEmail, 'recipientEmail') },
        amount: request.body.amount,
        currency: request.body.currency,
        idempotency: keyedRequest(request),
      });
      return answer(reply, outcome);
    },
  );
}

function quoteRoute(app: App, transfers: StablecoinTransferRoutesDeps): void {
  app.get(
    '/agent/transfer/quote',
    operation({
      operationId: 'quoteAgentTransfer',
      tag: 'stablecoin',
      summary: 'What a transfer would cost: fee and what the recipient receives',
      description:
        'Computed by the same rules as the transfer, so the numbers are the transfer’s, and an amount the transfer would refuse (under 0.01: 400 `amount_too_small` with `minimum`) is refused here too. `currency` defaults to USDC. The recipient must exist (404 `recipient_not_found`); the balance is not checked, the limits are (429 `limit_exceeded`, as the transfer would answer). 400 as for the transfer.',
      auth: 'required',
      // The recipient is read in the same statement as the key: one round trip for the whole quote.
      accountAlongsideKey: (request) => recipientKeyOf((request.query as { to?: unknown }).to),
      querystring: QuoteQuery,
      responses: { 200: QuoteResponse },
      errors: [...TRANSFER_CODES.filter((code) => code !== 'insufficient_balance'), 'invalid_field'],
    }),
    async (request) => {
      const caller = callerOf(request);
      const quote = await transfers.quote({
        senderAccountId: caller.accountId,
        senderFreeze: caller.freeze,
        to: recipientQueryOf(request.query.to),
        amount: request.query.amount,
        currency: request.query.currency,
        recipientLookup: request.accountLookup,
      });
      return {
        amount: toJsonNumber(quote.amountMinor, quote.currency),
        fee: toJsonNumber(quote.feeMinor, quote.currency),
        feeRate: quote.feeRateLabel,
        recipientReceives: toJsonNumber(quote.netMinor, quote.currency),
        currency: quote.currency,
        ...(quote.recipientHandle !== null ? { recipientHandle: quote.recipientHandle } : {}),
      };
    },
  );
}

/** The request's Idempotency-Key, to be claimed and answered with the transfer, in its transaction. */
function keyedRequest(request: FastifyRequest): KeyedRequest | null {
  const { idempotencyKey: key, idempotencyRequestHash: requestHash } = request;
  if (key === null || requestHash === null) return null;
  return { key, requestHash, answerOf: (sent) => JSON.stringify(presentTransfer(sent)) };
}

/** The transfer's answer: under a key, the very body stored with it (or an earlier one, replayed). */
function answer(reply: FastifyReply, outcome: SendOutcome) {
  if (outcome.kind === 'replay') return sendStoredAnswer(reply, { status: outcome.status, body: outcome.body, replayed: true });
  if (outcome.body !== null) return sendStoredAnswer(reply, { status: 200, body: outcome.body, replayed: false });
  return presentTransfer(outcome.sent);
}

function presentTransfer({ transfer: t, recipientHandle }: SentStablecoinTransfer) {
  return {
    transferId: t.id,
    status: t.status,
    amount: toJsonNumber(t.amountMinor, t.currency),
    fee: toJsonNumber(t.feeMinor, t.currency),
    recipientAmount: toJsonNumber(netOf(t), t.currency),
    currency: t.currency,
    recipientHandle,
    createdAt: t.createdAt.toISOString(),
  };
}
