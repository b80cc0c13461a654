// Schemas of the stablecoin funding endpoints: the deposit address, funding links and the sandbox
// faucet (contract §2 and §4, DESIGN §6–7).
import { Type } from 'typebox';
import { StringEnum } from './common.js';

const TokenName = StringEnum(['USDC', 'EURC']);
const CurrencyInput = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'USDC or EURC (case-insensitive); anything else is 400 unsupported_currency',
  examples: ['USDC'],
});
const AmountInput = Type.Number({
  description: 'Amount in major units (25.5 is 25.50), greater than 0, at most 6 decimals and at most 1,000,000',
  examples: [100],
});

export const DepositAddressQuery = Type.Object(
  {
    chain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description:
          'MATIC (Polygon), the only chain peerpay receives on; POLYGON is accepted too and an absent value means MATIC. Any other value is 400 unsupported_chain.',
        examples: ['MATIC'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const DepositAddressResponse = Type.Object(
  {
    address: Type.String({
      pattern: '^0x[0-9a-fA-F]{40}$',
      description: 'The caller’s Polygon deposit address, EIP-55 checksummed',
      examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
    }),
    chain: Type.Literal('MATIC'),
    network: Type.Literal('polygon'),
    tokens: Type.Array(TokenName, { description: 'Tokens credited when they arrive at the address' }),
  },
  { examples: [{ address: '0x52908400098527886E0F7030069857D2E4169EE7', chain: 'MATIC', network: 'polygon', tokens: ['USDC', 'EURC'] }] },
);

export const BuySessionBody = Type.Object(
  { amount: AmountInput, currency: CurrencyInput },
  { additionalProperties: false, examples: [{ amount: 100, currency: 'USDC' }] },
);

export const FundingLinkResponse = Type.Object(
  {
    url: Type.String({ description: 'Private link for the user; it works once. Not to be shared or logged.' }),
    amount: Type.Number({ description: 'The amount the link adds, in major units', examples: [100] }),
    currency: TokenName,
    expiresAt: Type.String({ format: 'date-time', description: '30 minutes after creation' }),
  },
  {
    examples: [
      {
        url: 'https://pay.example.com/links/funding/kJ3v9QhXw2pL7rT5yB8nZc4mF6dS1aGe0uHo2iNk3Qw',
        amount: 100,
        currency: 'USDC',
        expiresAt: '2026-01-05T10:30:00.000Z',
      },
    ],
  },
);

export const FaucetBody = Type.Object(
  {
    address: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Polygon address: 0x and 40 hex digits; mixed case must be a valid EIP-55 checksum; not the zero address',
    }),
    amount: AmountInput,
    currency: CurrencyInput,
  },
  { additionalProperties: false, examples: [{ address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: 100, currency: 'USDC' }] },
);

export const FaucetResponse = Type.Object(
  { txHash: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: 'The mint transaction on the embedded chain' }) },
  { examples: [{ txHash: '0x9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1a3c5b7d9f1e' }] },
);
