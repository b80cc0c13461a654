// GET /admin/treasury: the operator's view of the hot wallet, custody and waiting withdrawals.
// Token amounts are exact decimal strings in major units; gas in wei as a decimal string.
import { Type } from 'typebox';

const Decimal = (description: string) => Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', description });

const TokenTreasury = Type.Object({
  token: Type.String(),
  hotWallet: Decimal('What the hot wallet holds now'),
  committed: Decimal('Signed by the outbox, not yet taken by the chain: about to leave the hot wallet'),
  available: Decimal('hotWallet − committed: what the next withdrawal can use'),
  coldSent: Decimal('Sent to the cold address (signed, not reverted): peerpay custody, less what came back'),
  coldReturned: Decimal(
    "Sent back from the cold addresses to peerpay's addresses (hot wallet, deposit addresses), in confirmed blocks the custody check has read",
  ),
  floor: Type.Union([Decimal('HOT_WALLET_MIN_<TOKEN>'), Type.Null()]),
  ceiling: Type.Union([Decimal('HOT_WALLET_MAX_<TOKEN>'), Type.Null()]),
  custody: Type.Object({
    books: Decimal("The ledger's custody: what peerpay holds on chain for others, withdrawals under way excluded"),
    lastCheck: Type.Union([
      Type.Object({
        chain: Decimal('What the chain held: hot wallet, deposit addresses and cold sent less returned, at one block'),
        books: Decimal('What the books said at that check'),
        ok: Type.Boolean(),
        blockNumber: Type.String(),
        checkedAt: Type.String({ format: 'date-time' }),
      }),
      Type.Null(),
    ]),
  }),
  userBalances: Decimal("The total of users' balances"),
  feesEarned: Decimal('Fees posted to peerpay'),
  waitingWithdrawals: Type.Object({
    count: Type.Integer(),
    overdue: Type.Integer({ description: 'Waiting longer than WITHDRAWAL_WAIT_ALERT_MS' }),
    oldestAgeSeconds: Type.Union([Type.Integer(), Type.Null()]),
  }),
});

export const TreasuryResponse = Type.Object(
  {
    hotWallet: Type.String(),
    coldAddress: Type.Union([Type.String(), Type.Null()]),
    gas: Type.Object({ balanceWei: Type.String(), minWei: Type.String(), low: Type.Boolean() }),
    tokens: Type.Array(TokenTreasury),
  },
  {
    examples: [
      {
        hotWallet: '0x4B7Ac8d76676b96d000CD0F42D05f15c14c63214',
        coldAddress: null,
        gas: { balanceWei: '10000000000000000000000', minWei: '1000000000000000000', low: false },
        tokens: [
          {
            token: 'USDC',
            hotWallet: '120.000000',
            committed: '0.000000',
            available: '120.000000',
            coldSent: '0.000000',
            coldReturned: '0.000000',
            floor: null,
            ceiling: null,
            custody: {
              books: '150.000000',
              lastCheck: { chain: '150.000000', books: '150.000000', ok: true, blockNumber: '42', checkedAt: '2026-01-05T10:00:00.000Z' },
            },
            userBalances: '148.000000',
            feesEarned: '2.000000',
            waitingWithdrawals: { count: 0, overdue: 0, oldestAgeSeconds: null },
          },
        ],
      },
    ],
  },
);

/** The reason every operator write must give (DESIGN §17): kept in its audit entry. Blank is refused (400). */
export const Note = Type.String({
  minLength: 1,
  maxLength: 1000,
  pattern: '\\S',
  description: 'Why: kept with the operator action in the audit log; required, not blank',
  examples: ['Customer asked by e-mail, ticket 4411'],
});
