// Kysely's view of the tables created in ./migrations. Money columns are `bigint` in SQL and
// `bigint` here: the drivers are configured (see database.ts) to never read them into `number`.
import type { ColumnType, Generated } from 'kysely';

type Money = ColumnType<bigint, bigint, bigint>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AccountsTable {
  id: Generated<number>;
  handle: string;
  email: string;
  name: string;
  password_hash: string;
  phone: string | null;
  website: string | null;
  discoverable: Generated<boolean>;
  wallet_id: string | null;
  deposit_address: string | null;
  failed_logins: Generated<number>;
  failed_logins_since: Date | null;
  created_at: Timestamp;
  /** The current freeze (migration 0024): null when the account is not frozen. */
  frozen_scope: ColumnType<'all' | 'payouts' | null, 'all' | 'payouts' | null | undefined, 'all' | 'payouts' | null>;
  frozen_id: ColumnType<string | null, string | null | undefined, string | null>;
  frozen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  frozen_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  key_hash: string;
  last4: string;
  created_at: Timestamp;
  revoked_at: Date | null;
}

export interface LedgerAccountsTable {
  id: Generated<number>;
  code: string;
  owner_account_id: number | null;
  kind: string;
  asset: string;
  allow_negative: boolean;
  balance: Generated<bigint>;
  pending_debits: Generated<bigint>;
  pending_credits: Generated<bigint>;
}

export interface LedgerTransfersTable {
  id: Generated<bigint>;
  operation_id: string;
  kind: 'posted' | 'pending' | 'post_pending' | 'void_pending';
  debit_account_id: number;
  credit_account_id: number;
  asset: string;
  amount: Money;
  pending_transfer_id: bigint | null;
  code: string;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  created_at: Timestamp;
  locked_at: Timestamp;
}

export interface LinksTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  purpose: string;
  payload: string | null;
  expires_at: Date;
  used_at: Date | null;
  outcome: string | null;
  created_at: Timestamp;
  /** The processor's session or connected account behind the link (migration 0010). */
  processor_ref: string | null;
  /** When the reconciliation job reads the processor's session back; null: nothing to read (migration 0010). */
  reconcile_at: Date | null;
}

export interface ProcessorCustomersTable {
  account_id: number;
  customer_ref: string;
  card_ref: string | null;
  bank_debit_ref: string | null;
  payout_ref: string | null;
  /** The payout account made at the processor, ready or not (migration 0010). */
  payout_account_ref: string | null;
}

export interface ProcessorEventsTable {
  id: string;
  type: string;
  received_at: Date;
}

export interface SandboxInstrumentsTable {
  ref: string;
  customer_ref: string;
  kind: 'card' | 'bank_debit' | 'payout';
  behaviour: 'succeed' | 'decline' | 'return';
  created_at: Timestamp;
}

export interface SandboxChargesTable {
  ref: string;
  idempotency_key: string;
  instrument_ref: string;
  kind: 'card_charge' | 'bank_debit' | 'payout';
  currency: string;
  amount: Money;
  status: 'succeeded' | 'declined' | 'pending' | 'returned';
  settles_at: Date | null;
  created_at: Timestamp;
}

export interface FiatTransfersTable {
  id: string;
  sender_account_id: number;
  recipient_account_id: number;
  currency: string;
  amount: Money;
  fee: Money;
  payment_method: 'instant' | 'ach';
  status: 'processing' | 'pending' | 'completed' | 'failed';
  note: string | null;
  processor_ref: string | null;
  failure_code: string | null;
  created_at: Date;
  settles_at: Date | null;
  completed_at: Date | null;
  /** The client's Idempotency-Key, unique per sender (migration 0005). */
  idempotency_key: string | null;
  /** A job's lease on the row (migration 0005). */
  locked_until: Date | null;
  /** The card or bank-debit mandate charged (migration 0005). */
  instrument_ref: string | null;
  /** When the settlement job next asks the processor about a pending debit (migration 0010). */
  check_at: Date | null;
}

export interface PayoutsTable {
  id: string;
  account_id: number;
  currency: string;
  amount: Money;
  status: 'pending' | 'paid' | 'failed';
  processor_ref: string | null;
  created_at: Date;
  failure_code: string | null;
  completed_at: Date | null;
  /** A job's lease on the row (migration 0005). */
  locked_until: Date | null;
  /** The payout account paid (migration 0005). */
  instrument_ref: string | null;
}

export interface StablecoinTransfersTable {
  id: string;
  sender_account_id: number;
  recipient_account_id: number;
  currency: 'USDC' | 'EURC';
  /** Before fee; the recipient received amount - fee (migration 0006). */
  amount: Money;
  fee: Money;
  status: 'complete';
  idempotency_key: string | null;
  created_at: Date;
}

export interface WithdrawalAddressesTable {
  account_id: number;
  /** EIP-55 checksummed (migration 0006). */
  address: string;
  updated_at: Date;
}

export interface ChainNoncesTable {
  /** EIP-55 address of a peerpay sender (the hot wallet) (migration 0008). */
  sender: string;
  next_nonce: bigint;
}

export interface HotWalletOutboxTable {
  id: string;
  purpose: 'sweep' | 'withdrawal' | 'x402' | 'cold';
  reference_id: string;
  sender: string;
  nonce: bigint;
  tx_hash: string;
  /** The signed transaction, hex: re-broadcast as is, never signed again (migration 0008). */
  raw_tx: string;
  status: 'signed' | 'broadcast' | 'confirmed' | 'reverted';
  block_number: bigint | null;
  broadcast_attempts: Generated<number>;
  last_error: string | null;
  created_at: Date;
  last_broadcast_at: Date | null;
  finished_at: Date | null;
  locked_until: Date | null;
  /** When the current transaction (tx_hash) was first broadcast; a replacement resets it (migration 0014). */
  current_since: Date | null;
}

/** Transactions an outbox entry replaced with a higher fee, same nonce (migration 0014). */
export interface HotWalletOutboxReplacedTable {
  tx_hash: string;
  outbox_id: string;
  raw_tx: string;
  replaced_at: Date;
}

/** The hot wallet's excess sent to the operator's cold address (migration 0014). */
export interface ColdTransfersTable {
  id: string;
  token: 'USDC' | 'EURC';
  to_address: string;
  amount: Money;
  status: 'open' | 'confirmed' | 'failed';
  tx_hash: string | null;
  failure: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface WithdrawalsTable {
  id: string;
  account_id: number;
  currency: 'USDC' | 'EURC';
  address: string;
  /** gross = fee + net; net is sent on chain (migration 0008). */
  gross: Money;
  fee: Money;
  net: Money;
  status: 'pending' | 'complete' | 'failed';
  failure_code: string | null;
  tx_hash: string | null;
  idempotency_key: string | null;
  created_at: Date;
  completed_at: Date | null;
  /** Set while the hot wallet cannot cover it yet (migration 0014). */
  waiting_since: Generated<Date | null>;
  /** When the operator was told it waits longer than WITHDRAWAL_WAIT_ALERT_MS. */
  wait_reported_at: Generated<Date | null>;
}

export interface ChainSweepsTable {
  id: string;
  account_id: number;
  /** The deposit address swept, EIP-55 (migration 0007). */
  address: string;
  token: 'USDC' | 'EURC';
  amount: Money;
  /** The balance was read at this block: the sweep moves every deposit up to it. */
  covers_through_block: bigint;
  /** EIP-3009 nonce, 0x + 64 hex. */
  auth_nonce: string;
  /** Seconds since the epoch; the authorization is valid strictly before it. */
  valid_before: bigint;
  status: 'open' | 'confirmed' | 'reverted' | 'failed';
  tx_hash: string | null;
  failure: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface ChainDepositsTable {
  id: string;
  account_id: number;
  token: 'USDC' | 'EURC';
  amount: Money;
  tx_hash: string;
  log_index: number;
  block_number: bigint;
  block_hash: string;
  from_address: string;
  to_address: string;
  credited_at: Date;
  /** The sweep that moved it to the hot wallet (migration 0007). */
  sweep_id: string | null;
  swept_at: Date | null;
  /** `blocked`: from a sanctioned sender, credited to nobody until released (migration 0026). */
  status: Generated<'credited' | 'blocked' | 'released'>;
  released_at: Date | null;
}

export interface ChainScanCursorsTable {
  name: string;
  /** First block not yet fully read (migration 0007). */
  next_block: bigint;
  anchor_hash: string | null;
  range_to: bigint | null;
  range_to_hash: string | null;
  accounts_after: Generated<number>;
  updated_at: Date;
}

export interface SandboxClockTable {
  id: number;
  offset_ms: Money;
}

export interface X402PaymentsTable {
  id: string;
  source: 'chain' | 'balance';
  /** Which micro-endpoint was paid for, e.g. "GET /nano/search" (migration 0009). */
  endpoint: string;
  asset: 'USDC';
  amount: Money;
  protocol_version: 1 | 2 | null;
  /** Lower-case payer address and EIP-3009 nonce of an on-chain payment: unique together. */
  payer: string | null;
  authorization_nonce: string | null;
  /** The authorization's validBefore, seconds since the epoch. */
  valid_before: Money | null;
  pay_to: string | null;
  /** The paying account of a balance payment. */
  account_id: number | null;
  status: 'settling' | 'settled' | 'failed';
  tx_hash: string | null;
  failure_reason: string | null;
  created_at: Date;
  settled_at: Date | null;
}

/** The last custody check per token (migration 0011); numeric(78,0) columns are read as decimal strings. */
/** A token transfer sent by a cold address (migration 0018). */
export interface ColdOutflowsTable {
  tx_hash: string;
  log_index: number;
  token: 'USDC' | 'EURC';
  from_address: string;
  to_address: string;
  amount: ColumnType<string, string, string>;
  block_number: bigint;
  found_at: Date;
}

export interface CustodyChecksTable {
  token: 'USDC' | 'EURC';
  books_minor: ColumnType<string, string, string>;
  chain_minor: ColumnType<string, string, string>;
  block_number: bigint;
  ok: boolean;
  checked_at: Date;
  /** When the check of this token began failing, kept while it fails (migration 0020); null while ok. */
  failing_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Which master seed and chain this database belongs to (migration 0011); one row. */
export interface InstallationIdentityTable {
  id: number;
  seed_fingerprint: string;
  chain_id: number;
  chain_block1_hash: string;
  recorded_at: Date;
}

export interface McpConfirmationsTable {
  id_hash: string;
  account_id: number;
  terms_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Date | null;
}

export interface EventsTable {
  seq: Generated<bigint>;
  id: string;
  account_id: number;
  type: string;
  subject_id: string;
  /** JSON, written as JSON text. */
  data: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  /** The writing transaction's id (xid8, read as a decimal string): GET /events' order (migration 0027). */
  xid: Generated<string>;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: number;
  url: string;
  /** A JSON array of event types (written as JSON text), or null for every type. */
  events: ColumnType<string[] | null, string | null, string | null>;
  secret_salt: string;
  status: 'enabled' | 'disabled' | 'deleted';
  failing_since: Date | null;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<bigint>;
  endpoint_id: string;
  event_seq: bigint;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Date | null;
  created_at: Timestamp;
  finished_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: Generated<bigint>;
  delivery_id: bigint;
  endpoint_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  succeeded: boolean;
}

export interface FiatHoldsTable {
  id: string;
  account_id: number;
  currency: string;
  transfer_id: string;
  amount: Money;
  remaining: Money;
  release_at: Timestamp;
  released_at: Date | null;
  created_at: Timestamp;
}

export interface RefundsTable {
  id: string;
  transfer_id: string;
  origin: 'operator' | 'processor';
  processor_ref: string | null;
  currency: string;
  amount: Money;
  fee: Money;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string;
  note: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  undone_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DisputesTable {
  id: string;
  processor_ref: string;
  transfer_id: string;
  sender_account_id: number;
  recipient_account_id: number;
  currency: string;
  amount: Money;
  taken: Money;
  fee_taken: Money;
  dispute_fee: Money;
  reason: string;
  status: 'open' | 'won' | 'lost';
  opened_at: Timestamp;
  closed_at: Date | null;
}

/** Append-only (migration 0022): a trigger refuses UPDATE, DELETE and TRUNCATE. */
export interface AuditLogTable {
  id: Generated<bigint>;
  at: Timestamp;
  operator: string;
  action: string;
  target: string;
  before: ColumnType<unknown, string | null, string | null>;
  after: ColumnType<unknown, string | null, string | null>;
  note: string;
  request_id: string | null;
}

export interface LimitVolumeTable {
  account_id: number;
  currency: string;
  span: 'hour' | 'day';
  starts_at: Timestamp;
  volume: Money;
}

export interface AccountLimitOverridesTable {
  account_id: number;
  currency: string;
  day_limit: Money | null;
  month_limit: Money | null;
  updated_at: Timestamp;
}

export interface OperatorsTable {
  id: string;
  name: string;
  role: 'viewer' | 'support' | 'admin';
  token_hash: string;
  created_at: Timestamp;
  created_by: string;
  disabled_at: Date | null;
  enrolment_token_hash: string | null;
  enrolment_expires_at: Date | null;
  enrolled_at: Date | null;
}

export interface PayoutPausesTable {
  id: Generated<bigint>;
  account_id: number;
  cause: string;
  ref: string;
  created_at: Timestamp;
  lifted_at: Date | null;
}

export interface ReviewItemsTable {
  id: string;
  kind: string;
  ref: string;
  account_id: number;
  transfer_id: string | null;
  status: 'open' | 'closed';
  created_at: Timestamp;
}

export interface SandboxRefundsTable {
  ref: string;
  idempotency_key: string | null;
  charge_ref: string;
  currency: string;
  amount: Money;
  status: 'pending' | 'succeeded' | 'failed';
  refund_id: string | null;
  created_at: Timestamp;
}

export interface SandboxPayoutReversalsTable {
  ref: string;
  idempotency_key: string;
  payout_ref: string;
  amount: Money;
  created_at: Timestamp;
}

export interface PayoutReversalsTable {
  id: string;
  payout_id: string;
  account_id: number;
  currency: string;
  amount: Money;
  processor_ref: string;
  note: string;
  request_hash: string;
  created_at: Timestamp;
}

export interface DB {
  payout_reversals: PayoutReversalsTable;
  fiat_holds: FiatHoldsTable;
  refunds: RefundsTable;
  disputes: DisputesTable;
  audit_log: AuditLogTable;
  limit_volume: LimitVolumeTable;
  account_limit_overrides: AccountLimitOverridesTable;
  operators: OperatorsTable;
  payout_pauses: PayoutPausesTable;
  review_items: ReviewItemsTable;
  sandbox_refunds: SandboxRefundsTable;
  sandbox_payout_reversals: SandboxPayoutReversalsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transfers: LedgerTransfersTable;
  idempotency_keys: IdempotencyKeysTable;
  links: LinksTable;
  processor_customers: ProcessorCustomersTable;
  processor_events: ProcessorEventsTable;
  sandbox_instruments: SandboxInstrumentsTable;
  sandbox_charges: SandboxChargesTable;
  fiat_transfers: FiatTransfersTable;
  payouts: PayoutsTable;
  sandbox_clock: SandboxClockTable;
  stablecoin_transfers: StablecoinTransfersTable;
  withdrawal_addresses: WithdrawalAddressesTable;
  chain_nonces: ChainNoncesTable;
  hot_wallet_outbox: HotWalletOutboxTable;
  hot_wallet_outbox_replaced: HotWalletOutboxReplacedTable;
  cold_transfers: ColdTransfersTable;
  withdrawals: WithdrawalsTable;
  x402_payments: X402PaymentsTable;
  chain_sweeps: ChainSweepsTable;
  chain_deposits: ChainDepositsTable;
  chain_scan_cursors: ChainScanCursorsTable;
  custody_checks: CustodyChecksTable;
  cold_outflows: ColdOutflowsTable;
  installation_identity: InstallationIdentityTable;
  mcp_confirmations: McpConfirmationsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
