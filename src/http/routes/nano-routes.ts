// The x402 micro-endpoints: the status document and three paid lookups. Parameters are checked
// before any payment is asked for (a bad one is a 400 and costs nothing); then the call is paid
// with x402 (X-PAYMENT v1, PAYMENT-SIGNATURE v2) or, with an API key, from the caller's balance.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { lookupAccount, lookupQueryOf } from '../../nano/account-lookup.js';
import { directoryQueryOf, searchDirectory } from '../../nano/directory-search.js';
import { feeQuote, quoteRequestOf } from '../../nano/fee-quote.js';
import { createNanoContext, servePaid, type PaymentChoice } from '../../nano/nano-service.js';
import { NANO_ENDPOINTS, priceText, type NanoEndpoint } from '../../nano/pricing.js';
import { statusDocument } from '../../nano/status-document.js';
import { AppError } from '../../platform/errors.js';
import { problems } from '../schemas/common.js';
import {
  LookupQuery,
  LookupResult,
  PaymentHeaders,
  PaymentRequiredSchema,
  QuoteQuery,
  QuoteResult,
  SearchQuery,
  SearchResult,
  StatusDocumentSchema,
} from '../schemas/nano-schemas.js';
import type { App } from '../types.js';

/** The key is optional: x402 needs none; X-Payment-Source: balance needs one. */
const OPTIONAL_KEY: Record<string, string[]>[] = [{}, { bearer: [] }];

export async function nanoRoutes(app: App, deps: Deps): Promise<void> {
  const ctx = createNanoContext(deps);

  for (const path of ['/nano', '/.well-known/x402'] as const) {
    app.get(
      path,
      {
        config: { auth: 'public' },
        schema: {
          tags: ['x402'],
          summary: 'Status document of the pay-per-call micro-endpoints',
          security: [],
          response: { 200: StatusDocumentSchema, ...problems() },
        },
      },
      async () => statusDocument(ctx.terms, deps.config.publicUrl),
    );
  }

  const paidSchema = (endpoint: NanoEndpoint) => ({
    tags: ['x402'],
    summary: `${endpoint.description} (${priceText(endpoint)} USDC per call)`,
    description:
      `Paid per call, ${priceText(endpoint)} USDC (${endpoint.priceMinor} base units), with x402: without payment the answer is 402 with the ` +
      'requirements (v1 body, v2 PAYMENT-REQUIRED header); repeat the request with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). ' +
      'A successful paid answer carries X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2): base64 JSON {success, transaction, network, payer}. ' +
      'With an API key, X-Payment-Source: balance pays from the caller’s USDC balance instead. Bad parameters are refused (400) before any payment is asked for.',
    security: OPTIONAL_KEY,
    headers: PaymentHeaders,
  });

  function paid<T>(request: FastifyRequest, endpoint: NanoEndpoint, compute: () => Promise<T>) {
    return servePaid(ctx, { endpoint, resourceUrl: deps.config.publicUrl + request.url, choice: paymentChoiceOf(request), compute });
  }

  app.get(
    NANO_ENDPOINTS.search.path,
    { config: { auth: 'optional' }, schema: { ...paidSchema(NANO_ENDPOINTS.search), querystring: SearchQuery, response: { 200: SearchResult, 402: PaymentRequiredSchema, ...problems(400, 401) } } },
    async (request, reply) => {
      const query = directoryQueryOf(request.query);
      const answer = await paid(request, NANO_ENDPOINTS.search, async () => ({ results: await searchDirectory(deps.db, query) }));
      return reply.headers(answer.headers).send(answer.body);
    },
  );

  app.get(
    NANO_ENDPOINTS.lookup.path,
    { config: { auth: 'optional' }, schema: { ...paidSchema(NANO_ENDPOINTS.lookup), querystring: LookupQuery, response: { 200: LookupResult, 402: PaymentRequiredSchema, ...problems(400, 401) } } },
    async (request, reply) => {
      const query = lookupQueryOf(request.query);
      const answer = await paid(request, NANO_ENDPOINTS.lookup, () => lookupAccount(deps, query));
      return reply.headers(answer.headers).send(answer.body);
    },
  );

  app.get(
    NANO_ENDPOINTS.quote.path,
    { config: { auth: 'optional' }, schema: { ...paidSchema(NANO_ENDPOINTS.quote), querystring: QuoteQuery, response: { 200: QuoteResult, 402: PaymentRequiredSchema, ...problems(400, 401) } } },
    async (request, reply) => {
      // The whole quote is computed before payment: a quote that cannot be given costs nothing.
      const quote = feeQuote(quoteRequestOf(request.query, deps.config));
      const answer = await paid(request, NANO_ENDPOINTS.quote, async () => quote);
      return reply.headers(answer.headers).send(answer.body);
    },
  );
}

function paymentChoiceOf(request: FastifyRequest): PaymentChoice {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const v1 = header('x-payment');
  const v2 = header('payment-signature');
  const source = header('x-payment-source');
  const presented = [v1, v2, source].filter((h) => h !== undefined).length;
  if (presented > 1) throw new AppError('invalid_request', 'Pay one way: X-PAYMENT, PAYMENT-SIGNATURE or X-Payment-Source: balance.');
  if (source !== undefined) {
    if (!request.caller) throw new AppError('unauthorized', 'X-Payment-Source: balance needs an API key: "Authorization: Bearer <API_KEY>".', {}, { 'WWW-Authenticate': 'Bearer realm="peerpay"' });
    return { kind: 'balance', accountId: request.caller.accountId };
  }
  if (v1 !== undefined) return { kind: 'x402', version: 1, header: v1 };
  if (v2 !== undefined) return { kind: 'x402', version: 2, header: v2 };
  return { kind: 'none' };
}
