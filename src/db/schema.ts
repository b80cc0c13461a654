// Kysely's view of the database: the tables as generated from the migrated database
// (generated-types.ts, `npm run generate:db-types`), with the few columns the code reads more
// precisely than their SQL type says narrowed here, once, on top of the generated types. Money and
// other int8 columns are `bigint` there already: both drivers parse int8 into a bigint (database.ts).
import type { ColumnType, InsertType, SelectType, UpdateType } from 'kysely';
import type * as Generated from './generated-types.js';

type Tables = Generated.DB;

/**
 * The values the CHECK constraint of each of these columns allows, which the code reads as a union
 * rather than as `string` (or `number`). test/unit/db-types.test.ts fails when a list differs from
 * the migrated database's constraint.
 */
export const CHECKED_VALUES = {
  accounts: { frozen_scope: ['all', 'payouts'] },
  chain_deposits: { token: ['USDC', 'EURC'], status: ['credited', 'blocked', 'released'] },
  chain_sweeps: { token: ['USDC', 'EURC'], status: ['open', 'confirmed', 'reverted', 'failed'] },
  cold_outflows: { token: ['USDC', 'EURC'] },
  cold_transfers: { token: ['USDC', 'EURC'], status: ['open', 'confirmed', 'failed'] },
  custody_checks: { token: ['USDC', 'EURC'] },
  disputes: { status: ['open', 'won', 'lost'] },
  fiat_transfers: { payment_method: ['instant', 'ach'], status: ['processing', 'pending', 'completed', 'failed'] },
  hot_wallet_outbox: {
    purpose: ['sweep', 'withdrawal', 'x402', 'cold', 'gas'],
    status: ['signed', 'broadcast', 'confirmed', 'reverted'],
    provider: ['self', 'circle'],
    circle_token: ['USDC', 'EURC', 'POL'],
  },
  idempotency_keys: { state: ['in_progress', 'completed'] },
  ledger_transfers: { kind: ['posted', 'pending', 'post_pending', 'void_pending'] },
  limit_volume: { span: ['hour', 'day'] },
  operators: { role: ['viewer', 'support', 'admin'] },
  payouts: { status: ['pending', 'paid', 'failed'] },
  refunds: { origin: ['operator', 'processor'], status: ['pending', 'succeeded', 'failed'] },
  review_items: { status: ['open', 'closed'] },
  sandbox_charges: { kind: ['card_charge', 'bank_debit', 'payout'], status: ['succeeded', 'declined', 'pending', 'returned'] },
  sandbox_instruments: { kind: ['card', 'bank_debit', 'payout'], behaviour: ['succeed', 'decline', 'return'] },
  sandbox_refunds: { status: ['pending', 'succeeded', 'failed'] },
  snapshots: { metric: ['hot_wallet', 'transfer_volume', 'webhook_failures'], rail: ['chain', 'fiat', 'stablecoin', 'webhooks'] },
  stablecoin_transfers: { currency: ['USDC', 'EURC'], status: ['complete'] },
  webhook_deliveries: { status: ['pending', 'delivered', 'failed', 'cancelled'] },
  webhook_endpoints: { status: ['enabled', 'disabled', 'deleted'] },
  withdrawals: { currency: ['USDC', 'EURC'], status: ['pending', 'complete', 'failed'] },
  x402_payments: { source: ['chain', 'balance'], asset: ['USDC'], protocol_version: [1, 2], status: ['settling', 'settled', 'failed'] },
} as const satisfies {
  readonly [T in keyof Tables]?: { readonly [C in keyof Tables[T]]?: readonly NonNullable<SelectType<Tables[T][C]>>[] };
};

type Checked = typeof CHECKED_VALUES;

/** Column `C` holding only the values `V`: whether it may be null, and whether an insert may leave it out, stay the database's. */
type OneOf<C, V> = ColumnType<
  V | Extract<SelectType<C>, null>,
  V | Extract<InsertType<C>, null | undefined>,
  V | Extract<UpdateType<C>, null>
>;

/** A jsonb column read as `V` (the drivers parse it), written as JSON text; whether it may be null stays the database's. */
type JsonOf<C, V> = ColumnType<V | Extract<InsertType<C>, null>, InsertType<C>, UpdateType<C>>;

/** Table `T` with the columns of `O` replaced; `O` may name only columns that `T` has. */
type Override<T, O extends { [K in keyof O]: K extends keyof T ? unknown : never }> = {
  [K in keyof T]: K extends keyof O ? O[K] : T[K];
};

/** Table `T` with the columns of CHECKED_VALUES narrowed to their values. */
type Narrowed<T extends keyof Tables> = T extends keyof Checked
  ? Override<Tables[T], { [C in keyof Checked[T]]: C extends keyof Tables[T] ? OneOf<Tables[T][C], ValueOf<Checked[T][C]>> : never }>
  : Tables[T];

type ValueOf<List> = List extends readonly (infer V)[] ? V : never;

/** The webhook endpoint's `events` document: a JSON array of event types, or null for every type (migration 0013). */
type WebhookEndpoints = Override<Narrowed<'webhook_endpoints'>, { events: JsonOf<Tables['webhook_endpoints']['events'], string[]> }>;

export type DB = { [T in keyof Tables]: T extends 'webhook_endpoints' ? WebhookEndpoints : Narrowed<T> };

// Each table's type under the name the repositories import it by.
export type AccountLimitOverridesTable = DB['account_limit_overrides'];
export type AccountsTable = DB['accounts'];
export type ApiKeysTable = DB['api_keys'];
export type AuditLogTable = DB['audit_log'];
export type ChainDepositsTable = DB['chain_deposits'];
export type ChainNoncesTable = DB['chain_nonces'];
export type ChainScanCursorsTable = DB['chain_scan_cursors'];
export type ChainSweepsTable = DB['chain_sweeps'];
export type ColdOutflowsTable = DB['cold_outflows'];
export type ColdTransfersTable = DB['cold_transfers'];
export type CustodyChecksTable = DB['custody_checks'];
export type DisputesTable = DB['disputes'];
export type EventsTable = DB['events'];
export type FiatHoldsTable = DB['fiat_holds'];
export type FiatTransfersTable = DB['fiat_transfers'];
export type HotWalletOutboxTable = DB['hot_wallet_outbox'];
export type HotWalletOutboxReplacedTable = DB['hot_wallet_outbox_replaced'];
export type IdempotencyKeysTable = DB['idempotency_keys'];
export type InstallationIdentityTable = DB['installation_identity'];
export type LedgerAccountsTable = DB['ledger_accounts'];
export type LedgerTransfersTable = DB['ledger_transfers'];
export type LimitVolumeTable = DB['limit_volume'];
export type LinksTable = DB['links'];
export type McpConfirmationsTable = DB['mcp_confirmations'];
export type OperatorsTable = DB['operators'];
export type PayoutPausesTable = DB['payout_pauses'];
export type PayoutReversalsTable = DB['payout_reversals'];
export type PayoutsTable = DB['payouts'];
export type ProcessorCustomersTable = DB['processor_customers'];
export type ProcessorEventsTable = DB['processor_events'];
export type RefundsTable = DB['refunds'];
export type ReviewItemsTable = DB['review_items'];
export type SandboxChargesTable = DB['sandbox_charges'];
export type SandboxClockTable = DB['sandbox_clock'];
export type SandboxInstrumentsTable = DB['sandbox_instruments'];
export type SandboxPayoutReversalsTable = DB['sandbox_payout_reversals'];
export type SandboxRefundsTable = DB['sandbox_refunds'];
export type StablecoinTransfersTable = DB['stablecoin_transfers'];
export type WebhookAttemptsTable = DB['webhook_attempts'];
export type WebhookDeliveriesTable = DB['webhook_deliveries'];
export type WebhookEndpointsTable = DB['webhook_endpoints'];
export type WithdrawalAddressesTable = DB['withdrawal_addresses'];
export type WithdrawalsTable = DB['withdrawals'];
export type X402PaymentsTable = DB['x402_payments'];
