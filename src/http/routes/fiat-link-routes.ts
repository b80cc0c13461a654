// Fiat setup links: the pages on which the user saves a card, connects a payout account or allows
// bank debits (contract §4). peerpay never sees card or bank numbers.
import type { SetupPurpose } from '../../fiat/setup-links-service.js';
import type { SetupLinks } from '../../fiat/setup-links.js';
import { callerOf } from '../plugins/auth.js';
import { NoBody, SetupLinkResponse } from '../schemas/fiat-schemas.js';
import { operation } from '../schemas/operation.js';
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

export function setupLinkRoutes(app: App, setupLinks: SetupLinks): void {
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
        const link = await setupLinks.create({ accountId: callerOf(request).accountId, purpose: route.purpose });
        return { url: link.url, expiresIn: link.expiresIn, expiresAt: link.expiresAt.toISOString() };
      },
    );
  }
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
    config: {
      ...options.config,
      swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({ schema: { ...schema, body: undefined }, url }),
    },
    preValidation: async (request: { body: unknown }) => {
      if (request.body === undefined || request.body === null) request.body = {};
    },
  };
}
