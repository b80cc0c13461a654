// Schemas of the stablecoin funding endpoints: the deposit address, funding links and the sandbox
// faucet (contract §2 and §4, DESIGN §6–7).
import { Type } from '@fastify/type-provider-typebox';

const TokenName = Type.Union([Type.Literal('USDC'), Type.Literal('EURC')]);
const CurrencyInput = Type.String({ minLength: 1, maxLength: 16, description: 'USDC or EURC (case-insensitive); anything else is 400 unsupported_currency', examples: ['USDC'] });
const AmountInput = Type.Number({ description: 'Amount in major units (25.5 is 25.50), greater than 0, at most 6 decimals and at most 1,000,000', examples: [100] });

export const DepositAddressQuery = Type.Object(
  {
    chain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description: 'MATIC (Polygon), the only chain peerpay receives on; POLYGON is accepted too and an absent value means MATIC. Any other value is 400 unsupported_chain.',
        examples: ['MATIC'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const DepositAddressResponse = Type.Object({
  address: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'The caller’s Polygon deposit address, EIP-55 checksummed', examples: ['0x52908400098527886E0F7030069857D2E4169EE7'] }),
  chain: Type.Literal('MATIC'),
  network: Type.Literal('polygon'),
  tokens: Type.Array(TokenName, { description: 'Tokens credited when they arrive at the address' }),
});

export const BuySessionBody = Type.Object(
  { amount: AmountInput, currency: CurrencyInput },
  { additionalProperties: false },
);

export const FundingLinkResponse = Type.Object({
  url: Type.String({ description: 'Private link for the user; it works once. Not to be shared or logged.' }),
  amount: Type.Number({ description: 'The amount the link adds, in major units', examples: [100] }),
  currency: TokenName,
  expiresAt: Type.String({ format: 'date-time', description: '30 minutes after creation' }),
});

export const FaucetBody = Type.Object(
  {
    address: Type.String({ minLength: 1, maxLength: 100, description: 'Polygon address: 0x and 40 hex digits; mixed case must be a valid EIP-55 checksum; not the zero address' }),
    amount: AmountInput,
    currency: CurrencyInput,
  },
  { additionalProperties: false },
);

export const FaucetResponse = Type.Object({
  txHash: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'The mint transaction on the embedded chain' }),
});
