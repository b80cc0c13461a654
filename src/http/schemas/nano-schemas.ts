// Schemas of the x402 micro-endpoints: query parameters, answers, the status document and the 402
// answer (a problem document that is also an x402 v1 PaymentRequired body).
import { Type } from 'typebox';
import { QUOTE_ACTIONS } from '../../nano/fee-quote.js';
import { formatMinorTrimmed } from '../../money/amount.js';
import { HandleSchema, StringEnum } from './common.js';

const USDC_EXAMPLE = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';
const PAY_TO_EXAMPLE = '0x52908400098527886E0F7030069857D2E4169EE7';

const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });

export const PaymentHeaders = Type.Object({
  'x-payment': Type.Optional(
    Type.String({
      maxLength: 8192,
      description: 'x402 v1 payment: base64 JSON PaymentPayload (exact scheme, network polygon)',
      examples: [
        'eyJ4NDAyVmVyc2lvbiI6MSwic2NoZW1lIjoiZXhhY3QiLCJuZXR3b3JrIjoicG9seWdvbiIsInBheWxvYWQiOnsic2lnbmF0dXJlIjoiMHjigKYiLCJhdXRob3JpemF0aW9uIjp7fX19',
      ],
    }),
  ),
  'payment-signature': Type.Optional(
    Type.String({
      maxLength: 8192,
      description: 'x402 v2 payment: base64 JSON PaymentPayload (exact scheme, network eip155:137)',
      examples: ['eyJ4NDAyVmVyc2lvbiI6MiwicGF5bG9hZCI6eyJzaWduYXR1cmUiOiIweOKApiIsImF1dGhvcml6YXRpb24iOnt9fX0='],
    }),
  ),
  'x-payment-source': Type.Optional(
    Type.Literal('balance', {
      description: 'With an API key instead of a payment: charge the caller’s own USDC balance',
      examples: ['balance'],
    }),
  ),
});

export const SearchQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Text to find in names and handles (case-insensitive)', examples: ['ada'] }),
    ),
    website: Type.Optional(
      Type.String({
        maxLength: 300,
        description: 'A site or host; matches users whose website is on that host',
        examples: ['ada.example.com'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const SearchResult = Type.Object(
  {
    results: Type.Array(Type.Object({ handle: HandleSchema, name: Type.String(), website: Type.Union([Type.String(), Type.Null()]) }), {
      maxItems: 20,
      description: 'At most 20 users who opted in to the directory, by name',
    }),
  },
  { examples: [{ results: [{ handle: 'PA-7KQ2M9XD', name: 'Ada Lovelace', website: 'https://ada.example.com' }] }] },
);

export const LookupQuery = Type.Object(
  {
    email: Type.Optional(
      Type.String({ maxLength: 254, description: 'E-mail address; give this or handle', examples: ['ada@example.com'] }),
    ),
    handle: Type.Optional(
      Type.String({ maxLength: 32, description: 'Handle, PA- followed by 8 characters; give this or email', examples: ['PA-7KQ2M9XD'] }),
    ),
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
  {
    description: 'Found: {found: true, handle, agentHandle, firstName}. Not found: {found: false} (a paid answer, not a 404).',
    examples: [{ found: true, handle: 'PA-7KQ2M9XD', agentHandle: 'PA-7KQ2M9XD', firstName: 'Ada' }, { found: false }],
  },
);

export const QuoteQuery = Type.Object(
  {
    amount: Type.Optional(Type.String({ maxLength: 40, description: 'Decimal amount in major units; required', examples: ['10'] })),
    currency: Type.Optional(
      Type.String({
        maxLength: 8,
        description: 'USDC or EURC (transfer, withdraw; default USDC); USD, EUR, GBP or JPY (instant, ach; default USD)',
        examples: ['USDC'],
      }),
    ),
    action: Type.Optional(
      Type.String({ maxLength: 16, description: `One of ${QUOTE_ACTIONS.join(', ')}; default transfer`, examples: ['transfer'] }),
    ),
  },
  { additionalProperties: false },
);

const StablecoinQuote = Type.Object(
  {
    action: StringEnum(['transfer', 'withdraw']),
    amount: Type.Number(),
    fee: Type.Number(),
    feeRate: Type.String(),
    recipientReceives: Type.Number(),
    currency: Type.String(),
  },
  { description: 'Stablecoin: 1.49% deducted from the amount' },
);

const FiatQuote = Type.Object(
  {
    action: StringEnum(['instant', 'ach']),
    amount: Type.String(),
    fee: Type.String(),
    feeRate: Type.String(),
    totalDeducted: Type.String(),
    recipientReceives: Type.String(),
    currency: Type.String(),
  },
  { description: 'Fiat: the fee (2.49% instant, 0.8% ach) on top of the amount' },
);

export const QuoteResult = Type.Union([StablecoinQuote, FiatQuote], {
  examples: [
    { action: 'transfer', amount: 10, fee: 0.149, feeRate: '1.49%', recipientReceives: 9.851, currency: 'USDC' },
    {
      action: 'instant',
      amount: '10.00',
      fee: '0.25',
      feeRate: '2.49%',
      totalDeducted: '10.25',
      recipientReceives: '10.00',
      currency: 'USD',
    },
  ],
});

export const StatusDocumentSchema = Type.Object(
  {
    status: Type.String(),
    service: Type.String(),
    protocol: Type.Literal('x402'),
    version: Type.Literal(1),
    network: Type.String({ examples: ['eip155:137'] }),
    asset: Type.String({ description: 'The USDC token contract' }),
    payTo: Type.String({ description: 'peerpay’s receiving address' }),
    endpoints: Type.Record(
      Type.String(),
      Type.Object({ price: Type.String({ description: 'USDC, decimal' }), params: Type.Array(Type.String()) }),
    ),
    docs: Type.String({ description: 'URL of the API reference' }),
  },
  {
    examples: [
      {
        status: 'ok',
        service: 'peerpay',
        protocol: 'x402',
        version: 1,
        network: 'eip155:137',
        asset: USDC_EXAMPLE,
        payTo: PAY_TO_EXAMPLE,
        endpoints: {
          'GET /nano/search': { price: '0.001', params: ['q', 'website'] },
          'GET /nano/lookup': { price: '0.0001', params: ['email', 'handle'] },
          'GET /nano/quote': { price: '0.0001', params: ['amount', 'currency', 'action'] },
        },
        docs: 'https://pay.example.com/docs',
      },
    ],
  },
);

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

/**
 * The x402 v1 PaymentRequired members of a 402 answer: the body is a problem document (code
 * payment_required) and also an x402 v1 PaymentRequired; the PAYMENT-REQUIRED header carries the v2
 * PaymentRequired, base64 JSON (network eip155:137, amount).
 */
export const PaymentRequiredMembers = Type.Object(
  {
    price: Type.String({
      description: 'The price of this call in USDC, a decimal string as GET /nano states it (the x402 members count base units)',
      examples: ['0.0001'],
    }),
    x402Version: Type.Literal(1),
    error: Type.String({ description: 'Why payment is required: a reason string of the x402 specification when a payment was refused' }),
    accepts: Type.Array(PaymentRequirementsV1),
  },
  { description: 'x402 v1 PaymentRequired members' },
);

/** The x402 members of an example 402 answer of `path`, priced `priceMinor` USDC base units. */
export function paymentRequiredExample(path: string, priceMinor: bigint, description: string) {
  return {
    price: formatMinorTrimmed(priceMinor, 'USDC'),
    x402Version: 1,
    error: 'X-PAYMENT or PAYMENT-SIGNATURE header is required',
    accepts: [
      {
        scheme: 'exact',
        network: 'polygon',
        maxAmountRequired: priceMinor.toString(),
        resource: `https://pay.example.com${path}`,
        description,
        mimeType: 'application/json',
        outputSchema: {},
        payTo: PAY_TO_EXAMPLE,
        maxTimeoutSeconds: 60,
        asset: USDC_EXAMPLE,
        extra: { name: 'USD Coin', version: '2' },
      },
    ],
  };
}
