// Schemas of the x402 micro-endpoints: query parameters, answers, the status document and the 402
// answer (a problem document that is also an x402 v1 PaymentRequired body).
import { Type, type TSchema } from '@fastify/type-provider-typebox';
import { QUOTE_ACTIONS } from '../../nano/fee-quote.js';
import { HandleSchema } from './common.js';

const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });

export const PaymentHeaders = Type.Object({
  'x-payment': Type.Optional(Type.String({ maxLength: 8192, description: 'x402 v1 payment: base64 JSON PaymentPayload (exact scheme, network polygon)' })),
  'payment-signature': Type.Optional(Type.String({ maxLength: 8192, description: 'x402 v2 payment: base64 JSON PaymentPayload (exact scheme, network eip155:137)' })),
  'x-payment-source': Type.Optional(Type.Literal('balance', { description: 'With an API key instead of a payment: charge the caller’s own USDC balance' })),
});

export const SearchQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Text to find in names and handles (case-insensitive)' })),
    website: Type.Optional(Type.String({ maxLength: 300, description: 'A site or host; matches users whose website is on that host' })),
  },
  { additionalProperties: false },
);

export const SearchResult = Type.Object({
  results: Type.Array(
    Type.Object({ handle: HandleSchema, name: Type.String(), website: Type.Union([Type.String(), Type.Null()]) }),
    { maxItems: 20, description: 'At most 20 users who opted in to the directory, by name' },
  ),
});

export const LookupQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254 })),
    handle: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);

export const LookupResult = Type.Object(
  {
    found: Type.Boolean(),
    handle: Type.Optional(HandleSchema),
    agentHandle: Type.Optional(HandleSchema),
    firstName: Type.Optional(Type.String()),
  },
  { description: 'Found: {found: true, handle, agentHandle, firstName}. Not found: {found: false} (a paid answer, not a 404).' },
);

export const QuoteQuery = Type.Object(
  {
    amount: Type.Optional(Type.String({ maxLength: 40, description: 'Decimal amount in major units; required' })),
    currency: Type.Optional(Type.String({ maxLength: 8, description: 'USDC or EURC (transfer, withdraw; default USDC); USD, EUR, GBP or JPY (instant, ach; default USD)' })),
    action: Type.Optional(Type.String({ maxLength: 16, description: `One of ${QUOTE_ACTIONS.join(', ')}; default transfer` })),
  },
  { additionalProperties: false },
);

export const QuoteResult = Type.Union([
  Type.Object(
    {
      action: Type.Union([Type.Literal('transfer'), Type.Literal('withdraw')]),
      amount: Type.Number(),
      fee: Type.Number(),
      feeRate: Type.String(),
      recipientReceives: Type.Number(),
      currency: Type.String(),
    },
    { description: 'Stablecoin: 1.49% deducted from the amount' },
  ),
  Type.Object(
    {
      action: Type.Union([Type.Literal('instant'), Type.Literal('ach')]),
      amount: Type.String(),
      fee: Type.String(),
      feeRate: Type.String(),
      totalDeducted: Type.String(),
      recipientReceives: Type.String(),
      currency: Type.String(),
    },
    { description: 'Fiat: the fee (2.49% instant, 0.8% ach) on top of the amount' },
  ),
]);

export const StatusDocumentSchema = Type.Object({
  status: Type.String(),
  service: Type.String(),
  protocol: Type.Literal('x402'),
  version: Type.Literal(1),
  network: Type.String({ examples: ['eip155:137'] }),
  asset: Type.String({ description: 'The USDC token contract' }),
  payTo: Type.String({ description: 'peerpay’s receiving address' }),
  endpoints: Type.Record(Type.String(), Type.Object({ price: Type.String({ description: 'USDC, decimal' }), params: Type.Array(Type.String()) })),
  docs: Type.String({ description: 'URL of the API reference' }),
});

const PaymentRequirementsV1 = Type.Object({
  scheme: Type.Literal('exact'),
  network: Type.String({ examples: ['polygon'] }),
  maxAmountRequired: Type.String({ description: 'Atomic units of the asset (6 decimals for USDC)' }),
  resource: Type.String(),
  description: Type.String(),
  mimeType: Type.String(),
  outputSchema: Type.Optional(Type.Object({}, { additionalProperties: true })),
  payTo: Address,
  maxTimeoutSeconds: Type.Integer(),
  asset: Address,
  extra: Type.Object({ name: Type.String(), version: Type.String() }),
});

/** The x402 v1 PaymentRequired members of a 402 answer. */
const PaymentRequiredMembers = Type.Object({
  x402Version: Type.Literal(1),
  error: Type.String({ description: 'Why payment is required: a reason string of the x402 specification when a payment was refused' }),
  accepts: Type.Array(PaymentRequirementsV1),
});

export const PaymentRequiredSchema = Type.Intersect([Type.Ref('Problem') as unknown as TSchema, PaymentRequiredMembers], {
  description:
    'Payment required. The body is a problem document (code payment_required) and also an x402 v1 PaymentRequired; the PAYMENT-REQUIRED header carries the v2 PaymentRequired, base64 JSON (network eip155:137, amount).',
});
