// Schemas of POST /stablecoin/withdraw (contract §2 "Withdrawal", §4; DESIGN §4 and §6). Amounts
// are JSON numbers, as the contract's withdrawal object has them.
import { Type } from 'typebox';
import { StringEnum } from './common.js';
import { Token } from './stablecoin-schemas.js';

const TokenAmount = (description: string, example: number) =>
  Type.Number({ description: `${description}, in major units (at most 6 decimals)`, examples: [example] });

export const WithdrawBody = Type.Object(
  {
    amount: Type.Number({
      description:
        'Amount in major units before the fee (5 is 5 USDC), at most 6 decimals and at most 1,000,000; the 1.49% fee comes out of it and the rest is sent.',
      examples: [5],
    }),
    currency: Type.String({
      minLength: 1,
      maxLength: 16,
      description: 'USDC or EURC (case-insensitive); anything else is 400 unsupported_currency',
      examples: ['USDC'],
    }),
    address: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Polygon address to send to: 0x and 40 hex digits; mixed case must match its EIP-55 checksum; never the zero address nor a peerpay address. Omitted: the saved default withdrawal address.',
        examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
      }),
    ),
  },
  { additionalProperties: false, examples: [{ amount: 5, currency: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' }] },
);

export const WithdrawalResponse = Type.Object(
  {
    withdrawalId: Type.String({ examples: ['wd_4fZk8Q2WnYb7cT1R9xLmP3'] }),
    txId: Type.Union([Type.String({ pattern: '^0x[0-9a-f]{64}$' }), Type.Null()], {
      description:
        'Hash of the Polygon transaction that sends `net`; null while the withdrawal waits for peerpay’s hot wallet to hold the tokens (it is sent as soon as it does, and GET /stablecoin/transfers then names the transaction)',
    }),
    address: Type.String({ description: 'Where it is sent, EIP-55 checksummed' }),
    gross: TokenAmount('What left your balance', 5),
    fee: TokenAmount('1.49% of gross, rounded half-up to 6 decimals', 0.0745),
    net: TokenAmount('Gross minus fee: what the address receives', 4.9255),
    currency: Token,
    status: StringEnum(['pending', 'complete', 'failed'], {
      description:
        '`pending` until the transaction has the configured confirmations, then `complete`; `failed` (reverted) refunds gross. Follow it in GET /stablecoin/transfers.',
    }),
    note: Type.String({ description: 'Message for the user; clients forward it unchanged' }),
    createdAt: Type.String({ format: 'date-time', description: 'When the withdrawal was made' }),
  },
  {
    examples: [
      {
        withdrawalId: 'wd_4fZk8Q2WnYb7cT1R9xLmP3',
        txId: '0x9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1a3c5b7d9f1e',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        gross: 5,
        fee: 0.0745,
        net: 4.9255,
        currency: 'USDC',
        status: 'pending',
        note: 'Sending 4.9255 USDC on Polygon to 0x52908400098527886E0F7030069857D2E4169EE7; it arrives after 1 confirmation, usually within seconds to a minute.',
        createdAt: '2026-01-05T10:00:00.000Z',
      },
    ],
  },
);

export const WithdrawalQuoteQuery = Type.Object(
  {
    amount: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Amount before the fee, in major units, e.g. 5 or 5.5 (at most 6 decimals)',
      examples: ['5'],
    }),
    currency: Type.String({ minLength: 1, maxLength: 16, description: 'USDC or EURC (case-insensitive)', examples: ['USDC'] }),
    address: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Polygon address; omitted: the saved default withdrawal address',
        examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const WithdrawalQuoteResponse = Type.Object(
  {
    gross: TokenAmount('Taken from the balance', 5),
    fee: TokenAmount('The 1.49% fee', 0.0745),
    feeRate: Type.String({ examples: ['1.49%'] }),
    net: TokenAmount('What would arrive at the address', 4.9255),
    currency: Token,
    address: Type.String({
      description: 'Where it would go, EIP-55 checksummed',
      examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
    }),
  },
  {
    examples: [
      { gross: 5, fee: 0.0745, feeRate: '1.49%', net: 4.9255, currency: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    ],
  },
);
