// The x402 micro-endpoints: the status document and three paid lookups. Parameters are checked
// before any payment is asked for (a bad one is a 400 and costs nothing); then the call is paid
// with x402 (X-PAYMENT v1, PAYMENT-SIGNATURE v2) or, with an API key, from the caller's balance.
import type { FastifyRequest } from 'fastify';
import { lookupQueryOf } from '../../nano/account-lookup.js';
import { directoryQueryOf } from '../../nano/directory-search.js';
import { feeQuote, quoteRequestOf } from '../../nano/fee-quote.js';
import type { NanoPayments } from '../../nano/nano-payments.js';
import type { PaymentChoice } from '../../nano/nano-service.js';
import { NANO_ENDPOINTS, priceText, type NanoEndpoint } from '../../nano/pricing.js';
import { AppError } from '../../platform/errors.js';
import { receivedWhole } from '../request-received.js';
import { operation, type OperationSpec } from '../schemas/operation.js';
import {
  LookupQuery,
  LookupResult,
  PaymentHeaders,
  PaymentRequiredMembers,
  paymentRequiredExample,
  QuoteQuery,
  QuoteResult,
  SearchQuery,
  SearchResult,
  StatusDocumentSchema,
} from '../schemas/nano-schemas.js';
import type { App } from '../types.js';
import type { Config } from '../../config.js';

/** What these routes use: only these, not the whole composition root. */
export type NanoRoutesDeps = {
  nano: NanoPayments;
  config: Pick<Config, 'publicUrl' | 'maxStablecoinOperationMajor' | 'maxFiatTransferMajor'>;
};

export async function nanoRoutes(app: App, deps: NanoRoutesDeps): Promise<void> {
  statusDocumentRoutes(app, deps.nano);
  paidRoutes(app, deps);
}

/** The status document, at /nano and at its well-known address. */
function statusDocumentRoutes(app: App, nano: NanoPayments): void {
  const statusDocuments = [
    { path: '/nano', operationId: 'getNanoStatus', summary: 'Status document of the pay-per-call micro-endpoints' },
    {
      path: '/.well-known/x402',
      operationId: 'getX402Discovery',
      summary: 'Status document of the pay-per-call micro-endpoints, at its well-known address',
    },
  ] as const;
  for (const { path, operationId, summary } of statusDocuments) {
    app.get(
      path,
      operation({ operationId, tag: 'x402', summary, auth: 'public', responses: { 200: StatusDocumentSchema }, errors: [] }),
      async () => nano.statusDocument(),
    );
  }
}

/** A paid endpoint: the key is optional (x402 needs none; X-Payment-Source: balance needs one). */
function paid<const Q extends OperationSpec['querystring'], const R extends OperationSpec['responses']>(
  endpoint: NanoEndpoint,
  spec: { operationId: string; querystring: Q; responses: R; errors: OperationSpec['errors'] },
) {
  return operation({
    ...spec,
    tag: 'x402',
    summary: `${endpoint.description} (${priceText(endpoint)} USDC per call)`,
    description:
      `Paid per call, ${priceText(endpoint)} USDC (${endpoint.priceMinor} base units), with x402: without payment the answer is 402 with the ` +
      'requirements (v1 body, v2 PAYMENT-REQUIRED header); repeat the request with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2). ' +
      'A successful paid answer carries X-PAYMENT-RESPONSE (v1) or PAYMENT-RESPONSE (v2): base64 JSON {success, transaction, network, payer}. ' +
      'With an API key, X-Payment-Source: balance pays from the caller’s USDC balance instead. Bad parameters are refused (400) before any payment is asked for. ' +
      'HEAD is never charged: it answers as GET without payment (402), whatever payment it carries.',
    auth: 'optional',
    headers: PaymentHeaders,
    errors: [...spec.errors, 'payment_required', 'account_frozen'],
    problemMembers: { 402: PaymentRequiredMembers },
    problemExamples: { payment_required: paymentRequiredExample(endpoint.path, endpoint.priceMinor, endpoint.description) },
  });
}

/** The three paid lookups: directory search, account lookup and fee quote. */
function paidRoutes(app: App, deps: NanoRoutesDeps): void {
  const serve = <T>(request: FastifyRequest, endpoint: NanoEndpoint, compute: () => Promise<T>) =>
    servePaidCall(deps, { request, endpoint, compute });
  const { search, lookup, quote } = NANO_ENDPOINTS;
  app.get(
    search.path,
    paid(search, { operationId: 'searchNanoDirectory', querystring: SearchQuery, responses: { 200: SearchResult }, errors: [] }),
    async (request, reply) => {
      const query = directoryQueryOf(request.query);
      const answer = await serve(request, search, async () => ({ results: await deps.nano.searchDirectory(query) }));
      return reply.headers(answer.headers).send(answer.body);
    },
  );

  app.get(
    lookup.path,
    paid(lookup, {
      operationId: 'lookupNanoAccount',
      querystring: LookupQuery,
      responses: { 200: LookupResult },
      errors: ['invalid_email'],
    }),
    async (request, reply) => {
      const query = lookupQueryOf(request.query);
      const answer = await serve(request, lookup, () => deps.nano.lookupAccount(query));
      return reply.headers(answer.headers).send(answer.body);
    },
  );

  app.get(
    quote.path,
    paid(quote, {
      operationId: 'quoteNanoFee',
      querystring: QuoteQuery,
      responses: { 200: QuoteResult },
      errors: ['invalid_amount', 'amount_too_large', 'unsupported_currency'],
    }),
    async (request, reply) => {
      // The whole quote is computed before payment: a quote that cannot be given costs nothing.
      const answer = feeQuote(quoteRequestOf(request.query, deps.config));
      const served = await serve(request, quote, async () => answer);
      return reply.headers(served.headers).send(served.body);
    },
  );
}

/** Serves one paid call: asks for payment, takes it, and computes the answer once it is paid. */
function servePaidCall<T>(
  { nano, config }: NanoRoutesDeps,
  call: { request: FastifyRequest; endpoint: NanoEndpoint; compute: () => Promise<T> },
) {
  const { request, endpoint, compute } = call;
  // HEAD never moves money. It is a safe method (RFC 9110 §9.2.1): clients, proxies, caches and
  // link checkers send it to learn about a resource without asking for it, and its answer has no
  // body, so there is nothing to pay for. It answers as a GET without payment would: 402, with the
  // requirements in the PAYMENT-REQUIRED header. Any payment it carries is ignored: no balance is
  // charged and no x402 authorization is claimed or settled (it still pays for a GET afterwards).
  const choice: PaymentChoice = request.method === 'HEAD' ? { kind: 'none' } : paymentChoiceOf(request);
  return nano.serve({
    endpoint,
    resourceUrl: config.publicUrl + request.url,
    choice,
    compute,
    received: () => receivedWhole(request),
  });
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
    if (!request.caller)
      throw new AppError(
        'unauthorized',
        'Missing API key: X-Payment-Source: balance needs one, sent as "Authorization: Bearer <API_KEY>".',
        {},
        { 'WWW-Authenticate': 'Bearer realm="peerpay"' },
      );
    return { kind: 'balance', accountId: request.caller.accountId };
  }
  if (v1 !== undefined) return { kind: 'x402', version: 1, header: v1 };
  if (v2 !== undefined) return { kind: 'x402', version: 2, header: v2 };
  return { kind: 'none' };
}
