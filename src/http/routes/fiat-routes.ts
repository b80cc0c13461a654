// Fiat rail routes: setup links, transfers, history, balance and transactions.
import type { Deps } from '../../deps.js';
import { formatMinor } from '../../money/amount.js';
import { AppError } from '../../platform/errors.js';
import { createSetupLink, type SetupPurpose } from '../../fiat/setup-links-service.js';
import { sendTransfer } from '../../fiat/fiat-transfer-service.js';
import { DEFAULT_PAGE_SIZE, transactionHistory, transferHistory } from '../../fiat/fiat-history-service.js';
import { fiatBalances } from '../../fiat/fiat-balances.js';
import type { FiatTransfer } from '../../fiat/fiat-transfer.js';
import type { TransferHistoryRow, EntryRow } from '../../fiat/fiat-history-repository.js';
import { callerOf } from '../plugins/auth.js';
import { IdempotencyHeaders } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import {
  BalanceResponse,
  NoBody,
  PageQuery,
  SendTransferBody,
  SetupLinkResponse,
  TransactionsResponse,
  TransferHistoryResponse,
  TransferResponse,
} from '../schemas/fiat-schemas.js';
import type { App } from '../types.js';

const SETUP_LINK_ROUTES: { path: string; operationId: string; purpose: SetupPurpose; summary: string; description: string }[] = [
  {
    path: '/agent/setup-link',
    operationId: 'createCardSetupLink',
    purpose: 'card-setup',
    summary: 'Link for the user to save a card (24 hours)',
    description: 'Needed before `instant` transfers, and again after a card is declined. peerpay never sees the card number.',
  },
  {
    path: '/agent/connect-link',
    operationId: 'createPayoutSetupLink',
    purpose: 'payout-setup',
    summary: 'Link for the user to connect a payout account (10 minutes)',
    description: 'Once connected, money the user receives is paid out to it automatically.',
  },
  {
    path: '/agent/bank-debit-link',
    operationId: 'createBankDebitSetupLink',
    purpose: 'bank-debit-setup',
    summary: 'Link for the user to allow bank debits (24 hours)',
    description: 'One-time setup required for `ach` transfers. peerpay never sees bank account or routing numbers.',
  },
];

export async function fiatRoutes(app: App, deps: Deps): Promise<void> {
  // Processor failures reach the client as 503 processor_unavailable; their cause is logged here.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError && error.code === 'processor_unavailable') request.log.error({ err: error.cause }, 'payment processor call failed');
  });

  for (const route of SETUP_LINK_ROUTES) {
    app.post(
      route.path,
      {
        ...noBodyOperation({
          operationId: route.operationId,
          tag: 'fiat',
          summary: route.summary,
          description: `${route.description} 503 \`processor_unavailable\` when the payment processor does not answer.`,
          auth: 'required',
          readsBody: true,
          responses: { 200: SetupLinkResponse },
          errors: ['processor_unavailable'],
        }),
      },
      async (request) => {
        const link = await createSetupLink(deps, { accountId: callerOf(request).accountId, purpose: route.purpose });
        return { url: link.url, expiresIn: link.expiresIn, expiresAt: link.expiresAt.toISOString() };
      },
    );
  }

  app.post(
    '/transfers',
    operation({
      operationId: 'createTransfer',
      tag: 'fiat',
      summary: 'Send money to another user; the sender pays the fee on top',
      description:
        '`instant` charges the saved card and completes at once. `ach` debits the bank account: `pending`, then `completed` after 3 business days (or `failed` if the bank returns the debit). Answers 200. Errors: 400 `amount_too_small` (the total charged, fee included, must reach the card network’s minimum: USD 0.50, EUR 0.50, GBP 0.30, JPY 50; `minimum` names the smallest amount), 402 `card_setup_required` / `card_declined` / `card_authentication_required` (call POST /agent/setup-link and have the user set up the card again), 409 `ach_setup_required` with `needsBankDebitSetup: true` (call POST /agent/bank-debit-link), 503 `processor_unavailable` (retry with the same Idempotency-Key; you are charged once).',
      auth: 'required',
      readsBody: true,
      idempotent: true,
      headers: IdempotencyHeaders,
      body: SendTransferBody,
      responses: { 200: TransferResponse },
      errors: [
        'invalid_field',
        'invalid_amount',
        'amount_too_small',
        'amount_too_large',
        'unsupported_currency',
        'self_transfer',
        'recipient_not_found',
        'card_setup_required',
        'card_declined',
        'card_authentication_required',
        'ach_setup_required',
        'velocity_limit',
        'processor_unavailable',
      ],
    }),
    async (request) => {
      const sent = await sendTransfer(deps, {
        ...request.body,
        senderAccountId: callerOf(request).accountId,
        idempotencyKey: request.idempotencyKey,
      });
      return { transfer: presentTransfer(sent.transfer, sent.recipientHandle) };
    },
  );

  app.get(
    '/transfers',
    operation({
      operationId: 'listTransfers',
      tag: 'fiat',
      summary: 'Transfers sent and received, newest first',
      description: 'Received transfers appear once they reach the caller (pending or completed, or failed after a returned bank debit) and never show the sender’s fee.',
      auth: 'required',
      querystring: PageQuery,
      responses: { 200: TransferHistoryResponse },
      errors: [],
    }),
    async (request) => {
      const page = await transferHistory(deps, pageRequest(callerOf(request).accountId, request.query));
      return { transfers: page.items.map(presentHistoryItem), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/balance',
    operation({
      operationId: 'getBalance',
      tag: 'fiat',
      summary: 'Fiat balances per currency',
      description: 'Money received and not yet paid out. Every supported currency is listed, zero included.',
      auth: 'required',
      responses: { 200: BalanceResponse },
      errors: [],
    }),
    async (request) => {
      const balances = await fiatBalances(deps, callerOf(request).accountId);
      return {
        balances: balances.map((b) => ({ currency: b.currency, available: formatMinor(b.availableMinor, b.currency), pending: formatMinor(b.pendingMinor, b.currency) })),
      };
    },
  );

  app.get(
    '/transactions',
    operation({
      operationId: 'listTransactions',
      tag: 'fiat',
      summary: 'Every debit, fee, credit and payout of the caller, newest first',
      auth: 'required',
      querystring: PageQuery,
      responses: { 200: TransactionsResponse },
      errors: [],
    }),
    async (request) => {
      const page = await transactionHistory(deps, pageRequest(callerOf(request).accountId, request.query));
      return { transactions: page.items.map(presentEntry), nextCursor: page.nextCursor };
    },
  );
}

/**
 * A "no body" operation: the body schema only refuses fields (an absent body is read as {}, so that
 * only an empty object passes), and the document shows no request body at all (@fastify/swagger
 * would otherwise mark one as required).
 */
function noBodyOperation(spec: Parameters<typeof operation>[0]) {
  const options = operation({ ...spec, body: NoBody });
  return {
    ...options,
    config: { ...options.config, swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({ schema: { ...schema, body: undefined }, url }) },
    preValidation: async (request: { body: unknown }) => {
      if (request.body === undefined || request.body === null) request.body = {};
    },
  };
}

function pageRequest(accountId: number, query: { limit?: string | undefined; cursor?: string | undefined }) {
  // The schema's pattern admits only 1..100.
  return { accountId, limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit), cursor: query.cursor };
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function presentTransfer(t: FiatTransfer, recipientHandle: string) {
  return {
    id: t.id,
    amount: formatMinor(t.amountMinor, t.currency),
    fee: formatMinor(t.feeMinor, t.currency),
    totalDeducted: formatMinor(t.amountMinor + t.feeMinor, t.currency),
    currency: t.currency,
    status: t.status,
    paymentMethod: t.paymentMethod,
    recipientHandle,
    note: t.note,
    createdAt: t.createdAt.toISOString(),
    expectedSettlementAt: t.status === 'pending' ? iso(t.settlesAt) : null,
    completedAt: iso(t.completedAt),
  };
}

function presentHistoryItem(t: TransferHistoryRow) {
  const sent = t.direction === 'sent';
  return {
    id: t.id,
    direction: t.direction,
    amount: formatMinor(t.amountMinor, t.currency),
    // The fee is the sender's business: a recipient sees only what it received.
    ...(sent ? { fee: formatMinor(t.feeMinor, t.currency), totalDeducted: formatMinor(t.amountMinor + t.feeMinor, t.currency), failureCode: t.failureCode } : {}),
    currency: t.currency,
    status: t.status,
    paymentMethod: t.paymentMethod,
    counterpartyHandle: sent ? t.recipientHandle : t.senderHandle,
    senderHandle: t.senderHandle,
    recipientHandle: t.recipientHandle,
    note: t.note,
    createdAt: t.createdAt.toISOString(),
    completedAt: t.status === 'completed' || t.status === 'failed' ? iso(t.completedAt) : null,
  };
}

function presentEntry(e: EntryRow) {
  return {
    id: e.id,
    type: e.type,
    amount: formatMinor(e.amountMinor, e.currency),
    currency: e.currency,
    status: e.status,
    transferId: e.transferId,
    payoutId: e.payoutId,
    paymentMethod: e.paymentMethod,
    counterpartyHandle: e.counterpartyHandle,
    createdAt: e.createdAt.toISOString(),
    completedAt: iso(e.completedAt),
  };
}
