// Schemas of the fiat rail's requests and responses (contract §2 and §4, DESIGN §4 and §6).
import { Type } from 'typebox';
import { FIAT_CURRENCIES } from '../../money/assets.js';
import { HandleSchema, StringEnum } from './common.js';

const Decimal = (description: string) =>
  Type.String({
    pattern: '^[0-9]+(\\.[0-9]+)?$',
    description: `${description}; exact decimal string with the currency's decimals`,
    examples: ['10.25'],
  });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const Currency = StringEnum(['USD', 'EUR', 'GBP', 'JPY'], { description: `ISO 4217 code: ${FIAT_CURRENCIES.join(', ')}` });
export const PaymentMethod = StringEnum(['instant', 'ach'], {
  description: '`instant` (the default): charge the saved card now. `ach`: debit the bank account; settles in 3 business days.',
});
export const TransferStatus = StringEnum(['processing', 'pending', 'completed', 'failed'], {
  description:
    '`completed`: the recipient has the money. `pending`: bank debit not settled yet. `failed`: declined or returned; nothing moved. `processing`: being charged right now.',
});

export const SendTransferBody = Type.Object(
  {
    recipientHandle: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The recipient’s handle, PA- followed by 8 characters',
      examples: ['PA-7KQ2M9XD'],
    }),
    amount: Type.Number({
      description:
        'Amount the recipient receives, in major units (10.5 is 10.50 USD); at most the currency’s decimals (2, JPY 0). The fee is charged on top.',
      examples: [10],
    }),
    currency: Type.String({ minLength: 1, maxLength: 16, description: 'USD, EUR, GBP or JPY (case-insensitive)', examples: ['USD'] }),
    paymentMethod: Type.Optional(PaymentMethod),
    note: Type.Optional(Type.String({ maxLength: 500, description: 'Message to the recipient, at most 500 characters' })),
  },
  {
    additionalProperties: false,
    examples: [{ recipientHandle: 'PA-7KQ2M9XD', amount: 10, currency: 'USD', paymentMethod: 'instant', note: 'Dinner' }],
  },
);

export const FiatQuoteQuery = Type.Object(
  {
    recipientHandle: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The recipient’s handle, PA- followed by 8 characters (must exist)',
      examples: ['PA-7KQ2M9XD'],
    }),
    amount: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Amount the recipient receives, in major units, e.g. 10 or 10.5 (at most the currency’s decimals)',
      examples: ['10'],
    }),
    currency: Type.String({ minLength: 1, maxLength: 16, description: 'USD, EUR, GBP or JPY (case-insensitive)', examples: ['USD'] }),
    paymentMethod: Type.Optional(
      StringEnum(['instant', 'ach'], { description: '`instant` (the default, card) or `ach` (bank debit)', examples: ['instant'] }),
    ),
  },
  { additionalProperties: false },
);

export const FiatQuoteResponse = Type.Object(
  {
    amount: Decimal('What the recipient would receive'),
    fee: Decimal('The fee the sender would pay on top'),
    totalDeducted: Decimal('Amount plus fee: what the sender would be charged'),
    feeRate: Type.String({ examples: ['2.49%'] }),
    currency: Currency,
    paymentMethod: PaymentMethod,
    recipientHandle: HandleSchema,
  },
  {
    examples: [
      {
        amount: '10.00',
        fee: '0.25',
        totalDeducted: '10.25',
        feeRate: '2.49%',
        currency: 'USD',
        paymentMethod: 'instant',
        recipientHandle: 'PA-7KQ2M9XD',
      },
    ],
  },
);

export const TransferSchema = Type.Object({
  id: Type.String({ description: 'Transfer id', examples: ['tr_4fZk8Q2WnYb7cT1R9xLmP3'] }),
  amount: Decimal('What the recipient receives'),
  fee: Decimal('2.49% (instant) or 0.8% (ach) of the amount, rounded half-up, paid by the sender'),
  totalDeducted: Decimal('Amount plus fee: what the sender is charged'),
  currency: Currency,
  status: TransferStatus,
  paymentMethod: PaymentMethod,
  recipientHandle: HandleSchema,
  note: Nullable(Type.String()),
  createdAt: Timestamp('When the transfer was made'),
  expectedSettlementAt: Nullable(Timestamp('ach: when the bank debit is expected to settle')),
  completedAt: Nullable(Timestamp('When the recipient had the money for good')),
});

const TRANSFER_EXAMPLE = {
  id: 'tr_4fZk8Q2WnYb7cT1R9xLmP3',
  amount: '10.00',
  fee: '0.25',
  totalDeducted: '10.25',
  currency: 'USD',
  status: 'completed',
  paymentMethod: 'instant',
  recipientHandle: 'PA-7KQ2M9XD',
  note: 'Dinner',
  createdAt: '2026-01-05T10:00:00.000Z',
  expectedSettlementAt: null,
  completedAt: '2026-01-05T10:00:00.000Z',
};

export const TransferResponse = Type.Object({ transfer: TransferSchema }, { examples: [{ transfer: TRANSFER_EXAMPLE }] });

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'page size, a whole number from 1 to 100; default 20', examples: ['20'] }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description: '`nextCursor` of the previous page',
        examples: ['WyIyMDI2LTAxLTA1VDEwOjAwOjAwLjAwMFoiLCJ0cl80ZlprOFEyV25ZYjdjVDFSOXhMbVAzIl0'],
      }),
    ),
  },
  { additionalProperties: false },
);

const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' });

export const TransferHistoryItem = Type.Object({
  id: Type.String(),
  direction: StringEnum(['sent', 'received']),
  amount: Decimal('What the recipient receives'),
  fee: Type.Optional(Decimal('Sent transfers only: the fee the caller paid')),
  totalDeducted: Type.Optional(Decimal('Sent transfers only: amount plus fee')),
  currency: Currency,
  status: TransferStatus,
  failureCode: Type.Optional(
    Nullable(Type.String({ description: 'Why a transfer failed: card_declined, bank_debit_returned, bank_debit_refused' })),
  ),
  paymentMethod: PaymentMethod,
  counterpartyHandle: HandleSchema,
  senderHandle: HandleSchema,
  recipientHandle: HandleSchema,
  note: Nullable(Type.String()),
  refunded: Decimal('How much of the amount was refunded (by the service or the card issuer); failed refunds left out'),
  createdAt: Timestamp('When the transfer was made'),
  completedAt: Nullable(Timestamp('When it completed or failed for good')),
});

export const TransferHistoryResponse = Type.Object(
  { transfers: Type.Array(TransferHistoryItem), nextCursor: NextCursor },
  {
    examples: [
      {
        transfers: [
          {
            id: 'tr_4fZk8Q2WnYb7cT1R9xLmP3',
            direction: 'sent',
            amount: '10.00',
            fee: '0.25',
            totalDeducted: '10.25',
            currency: 'USD',
            status: 'completed',
            failureCode: null,
            paymentMethod: 'instant',
            counterpartyHandle: 'PA-7KQ2M9XD',
            senderHandle: 'PA-3JD8W2QA',
            recipientHandle: 'PA-7KQ2M9XD',
            note: 'Dinner',
            refunded: '0.00',
            createdAt: '2026-01-05T10:00:00.000Z',
            completedAt: '2026-01-05T10:00:00.000Z',
          },
        ],
        nextCursor: null,
      },
    ],
  },
);

export const BalanceResponse = Type.Object(
  {
    balances: Type.Array(
      Type.Object({
        currency: Currency,
        available: Decimal('Received and settled, less payouts under way'),
        pending: Decimal('Received by bank debit, not settled yet'),
        held: Decimal('Received by card, held until its hold ends (FIAT_HOLD_HOURS); not spendable yet'),
        owed: Decimal(
          'Owed to the service after a refund or dispute took back more than was held; repaid first from later receipts. While above zero, sending and payouts in this currency answer 403 account_in_debt',
        ),
      }),
      { description: 'One entry per supported currency, zero included' },
    ),
  },
  {
    examples: [
      {
        balances: [
          { currency: 'USD', available: '10.00', pending: '25.00', held: '5.00', owed: '0.00' },
          { currency: 'EUR', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
          { currency: 'GBP', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
          { currency: 'JPY', available: '0', pending: '0', held: '0', owed: '0' },
        ],
      },
    ],
  },
);

export const EntrySchema = Type.Object({
  id: Type.String({ description: 'Entry id: `<transfer id>:debit|fee|credit`, or the payout id' }),
  type: StringEnum(['debit', 'fee', 'credit', 'payout'], {
    description:
      '`debit`: the amount you sent. `fee`: its fee. `credit`: money you received. `payout`: money paid out to your payout account.',
  }),
  amount: Decimal('Always positive; `type` says the direction'),
  currency: Currency,
  status: Type.String({ description: 'Transfers: processing, pending, completed, failed. Payouts: pending, paid, failed.' }),
  transferId: Nullable(Type.String()),
  payoutId: Nullable(Type.String()),
  paymentMethod: Type.Union([PaymentMethod, Type.Null()]),
  counterpartyHandle: Type.Union([HandleSchema, Type.Null()]),
  createdAt: Timestamp('When it was made'),
  completedAt: Nullable(Timestamp('When it completed or failed for good')),
});

export const TransactionsResponse = Type.Object(
  { transactions: Type.Array(EntrySchema), nextCursor: NextCursor },
  {
    examples: [
      {
        transactions: [
          {
            id: 'tr_4fZk8Q2WnYb7cT1R9xLmP3:fee',
            type: 'fee',
            amount: '0.25',
            currency: 'USD',
            status: 'completed',
            transferId: 'tr_4fZk8Q2WnYb7cT1R9xLmP3',
            payoutId: null,
            paymentMethod: 'instant',
            counterpartyHandle: 'PA-7KQ2M9XD',
            createdAt: '2026-01-05T10:00:00.000Z',
            completedAt: '2026-01-05T10:00:00.000Z',
          },
        ],
        nextCursor: 'WyIyMDI2LTAxLTA1VDEwOjAwOjAwLjAwMFoiLCJ0cl80ZlprOFEyV25ZYjdjVDFSOXhMbVAzIl0',
      },
    ],
  },
);

export const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body (an empty object is accepted)' });

export const SetupLinkResponse = Type.Object(
  {
    url: Type.String({ description: 'Private link to the setup page; give it to the user only. Single use.' }),
    expiresIn: Type.String({ description: 'Human-readable lifetime', examples: ['24 hours'] }),
    expiresAt: Timestamp('When the link stops working'),
  },
  {
    examples: [
      {
        url: 'https://pay.example.com/links/card-setup/kJ3v9QhXw2pL7rT5yB8nZc4mF6dS1aGe0uHo2iNk3Qw',
        expiresIn: '24 hours',
        expiresAt: '2026-01-06T10:00:00.000Z',
      },
    ],
  },
);
