// Schemas of the stablecoin rail's requests and responses (contract §2 and §4, DESIGN §4 and §6).
// Transfer and quote objects carry JSON numbers as the contract says; balances are exact decimal
// strings.
import { Type } from 'typebox';
import { HandleSchema, StringEnum } from './common.js';

const TokenDecimal = (description: string) =>
  Type.String({
    pattern: '^[0-9]+\\.[0-9]{6}$',
    description: `${description}; exact decimal string with all 6 decimals of the token`,
    examples: ['100.000000'],
  });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const TokenAmount = (description: string, example: number) =>
  Type.Number({ description: `${description}, in major units (at most 6 decimals)`, examples: [example] });

export const Token = StringEnum(['USDC', 'EURC'], { description: 'USDC (US dollars) or EURC (euros) on Polygon' });

const CurrencyInput = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'USDC or EURC (case-insensitive); anything else is 400 unsupported_currency',
  examples: ['USDC'],
});
const AmountInput = Type.Number({
  description:
    'Amount in major units before the fee (10.5 is 10.50 USDC), at most 6 decimals and at most 1,000,000; the 1.49% fee comes out of it.',
  examples: [10],
});

export const AgentTransferBody = Type.Object(
  {
    to: Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'The recipient: e-mail address, handle (PA- followed by 8 characters) or E.164 phone number',
      examples: ['PA-7KQ2M9XD', 'bob@example.com', '+14155550123'],
    }),
    amount: AmountInput,
    currency: CurrencyInput,
  },
  { additionalProperties: false, examples: [{ to: 'PA-7KQ2M9XD', amount: 10, currency: 'USDC' }] },
);

export const StablecoinTransferBody = Type.Object(
  {
    recipientEmail: Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'The recipient’s e-mail address',
      examples: ['bob@example.com'],
    }),
    amount: AmountInput,
    currency: CurrencyInput,
  },
  { additionalProperties: false, examples: [{ recipientEmail: 'bob@example.com', amount: 10, currency: 'USDC' }] },
);

export const StablecoinTransferResponse = Type.Object(
  {
    transferId: Type.String({ examples: ['sct_4fZk8Q2WnYb7cT1R9xLmP3'] }),
    status: Type.Literal('complete', { description: 'Internal transfers complete at once' }),
    amount: TokenAmount('Before fee: what left the sender’s balance', 10),
    fee: TokenAmount('1.49% of the amount, rounded half-up to 6 decimals', 0.149),
    recipientAmount: TokenAmount('Amount minus fee: what the recipient received', 9.851),
    currency: Token,
    recipientHandle: HandleSchema,
    createdAt: Timestamp('When the transfer was made'),
  },
  {
    examples: [
      {
        transferId: 'sct_4fZk8Q2WnYb7cT1R9xLmP3',
        status: 'complete',
        amount: 10,
        fee: 0.149,
        recipientAmount: 9.851,
        currency: 'USDC',
        recipientHandle: 'PA-7KQ2M9XD',
        createdAt: '2026-01-05T10:00:00.000Z',
      },
    ],
  },
);

export const QuoteQuery = Type.Object(
  {
    to: Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'The recipient: e-mail address, handle or E.164 phone number (must exist)',
      examples: ['PA-7KQ2M9XD'],
    }),
    amount: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Amount before fee, in major units, e.g. 10 or 10.5 (at most 6 decimals)',
      examples: ['10'],
    }),
    currency: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'USDC (default) or EURC', examples: ['USDC'] })),
  },
  { additionalProperties: false },
);

export const QuoteResponse = Type.Object(
  {
    amount: TokenAmount('Before fee', 10),
    fee: TokenAmount('The fee that the transfer would deduct', 0.149),
    feeRate: Type.String({ examples: ['1.49%'] }),
    recipientReceives: TokenAmount('Amount minus fee', 9.851),
    currency: Token,
    recipientHandle: Type.Optional(
      Type.String({
        ...HandleSchema,
        description:
          'The recipient’s handle. Absent when `to` is a phone number of an account that is not in the public directory (`discoverable: false`): a quote does not tell whose number it is.',
      }),
    ),
  },
  { examples: [{ amount: 10, fee: 0.149, feeRate: '1.49%', recipientReceives: 9.851, currency: 'USDC', recipientHandle: 'PA-7KQ2M9XD' }] },
);

export const StablecoinBalanceResponse = Type.Object(
  {
    USDC: TokenDecimal('Spendable USDC'),
    EURC: TokenDecimal('Spendable EURC'),
  },
  { examples: [{ USDC: '100.000000', EURC: '0.000000' }] },
);

export const WithdrawalAddressBody = Type.Object(
  {
    address: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Polygon address: 0x and 40 hex digits. Mixed case must be a valid EIP-55 checksum; the zero address is refused.',
      examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
    }),
  },
  { additionalProperties: false, examples: [{ address: '0x52908400098527886E0F7030069857D2E4169EE7' }] },
);

export const WithdrawalAddressResponse = Type.Object(
  { address: Type.String({ description: 'EIP-55 checksummed' }) },
  { examples: [{ address: '0x52908400098527886E0F7030069857D2E4169EE7' }] },
);
export const SavedWithdrawalAddressResponse = Type.Object(
  { address: Type.Union([Type.String(), Type.Null()], { description: 'EIP-55 checksummed; null when none is saved' }) },
  { examples: [{ address: '0x52908400098527886E0F7030069857D2E4169EE7' }, { address: null }] },
);

export const HistoryItem = Type.Object({
  id: Type.String(),
  type: StringEnum(['transfer', 'withdrawal', 'deposit'], {
    description: 'The kind of movement; deposits and withdrawals are listed as their own types',
  }),
  direction: StringEnum(['sent', 'received']),
  amount: TokenAmount(
    'Sent: before fee (what left your balance). Received: what reached your balance (a blocked deposit: what arrived)',
    10,
  ),
  fee: Type.Optional(TokenAmount('Sent only: the fee you paid', 0.149)),
  recipientAmount: Type.Optional(TokenAmount('Sent only: what the recipient received', 9.851)),
  currency: Token,
  status: StringEnum(['complete', 'pending', 'failed', 'blocked'], {
    description:
      'Transfers: `complete`. Withdrawals: `pending` until confirmed on chain, then `complete`; `failed` refunded the amount. Deposits: `complete` (listed once credited, after the confirmations); `blocked` when the sender is on a sanctions list: not in your balance, the account is frozen, and peerpay support decides (a released deposit becomes `complete`).',
  }),
  address: Type.Optional(
    Type.String({
      description:
        'Withdrawals: the address sent to. Deposits: the address the tokens came from (the zero address for tokens minted to you, e.g. by a funding link)',
    }),
  ),
  txHash: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Withdrawals and deposits: the Polygon transaction' })),
  counterpartyHandle: Type.Union([HandleSchema, Type.Null()], { description: 'The other user; null for movements to or from the chain' }),
  createdAt: Timestamp('When it was made'),
});

export const HistoryResponse = Type.Object(
  {
    transfers: Type.Array(HistoryItem),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
  },
  {
    examples: [
      {
        transfers: [
          {
            id: 'wd_4fZk8Q2WnYb7cT1R9xLmP3',
            type: 'withdrawal',
            direction: 'sent',
            amount: 5,
            fee: 0.0745,
            recipientAmount: 4.9255,
            currency: 'USDC',
            status: 'complete',
            address: '0x52908400098527886E0F7030069857D2E4169EE7',
            txHash: '0x9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e9a1c3b5d7f9e1a3c5b7d9f1e',
            counterpartyHandle: null,
            createdAt: '2026-01-05T10:00:00.000Z',
          },
          {
            id: 'sct_8Hn2Lq5RtVb3Xc7Zp1Mk9W',
            type: 'transfer',
            direction: 'received',
            amount: 9.851,
            currency: 'USDC',
            status: 'complete',
            counterpartyHandle: 'PA-7KQ2M9XD',
            createdAt: '2026-01-04T09:30:00.000Z',
          },
        ],
        nextCursor: null,
      },
    ],
  },
);
