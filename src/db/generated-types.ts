// Generated from the migrated database by `npm run generate:db-types` (scripts/db-types.ts). Do not
// edit: add a migration and regenerate. src/db/schema.ts narrows columns on top of these types.

import type { ColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export type Numeric = ColumnType<string, number | string, number | string>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AccountLimitOverrides {
  account_id: number;
  currency: string;
  day_limit: bigint | null;
  month_limit: bigint | null;
  updated_at: Timestamp;
}

export interface Accounts {
  created_at: Generated<Timestamp>;
  deposit_address: string | null;
  discoverable: Generated<boolean>;
  email: string;
  failed_logins: Generated<number>;
  failed_logins_since: Timestamp | null;
  frozen_at: Timestamp | null;
  frozen_by: string | null;
  frozen_id: string | null;
  frozen_scope: string | null;
  handle: string;
  id: Generated<number>;
  name: string;
  password_hash: string;
  phone: string | null;
  wallet_id: string | null;
  website: string | null;
}

export interface ApiKeys {
  account_id: number;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  key_hash: string;
  last4: string;
  revoked_at: Timestamp | null;
}

export interface AuditLog {
  action: string;
  after: ColumnType<unknown, string, string> | null;
  at: Timestamp;
  before: ColumnType<unknown, string, string> | null;
  id: Generated<bigint>;
  note: string;
  operator: string;
  request_id: string | null;
  target: string;
}

export interface ChainDeposits {
  account_id: number;
  amount: bigint;
  block_hash: string;
  block_number: bigint;
  circle_transaction_id: string | null;
  credited_at: Timestamp;
  from_address: string;
  id: string;
  log_index: number;
  released_at: Timestamp | null;
  status: Generated<string>;
  sweep_id: string | null;
  swept_at: Timestamp | null;
  to_address: string;
  token: string;
  tx_hash: string;
}

export interface ChainNonces {
  next_nonce: bigint;
  sender: string;
}

export interface ChainScanCursors {
  accounts_after: Generated<number>;
  anchor_hash: string | null;
  name: string;
  next_block: bigint;
  range_to: bigint | null;
  range_to_hash: string | null;
  updated_at: Timestamp;
}

export interface ChainSweeps {
  account_id: number;
  address: string;
  amount: bigint;
  auth_nonce: string;
  covers_through_block: bigint;
  created_at: Timestamp;
  failure: string | null;
  finished_at: Timestamp | null;
  id: string;
  status: string;
  token: string;
  tx_hash: string | null;
  valid_before: bigint;
}

export interface CircleCustody {
  created_at: Timestamp;
  id: number;
  treasury_address: string | null;
  treasury_wallet_id: string | null;
  wallet_set_id: string | null;
  wallet_set_key: string;
}

export interface CircleInboundCursor {
  from_time: Timestamp;
  hold_at: Timestamp | null;
  leased_until: Timestamp | null;
  name: string;
  newest: Timestamp | null;
  page_after: string | null;
  updated_at: Timestamp;
}

export interface ColdOutflows {
  amount: Numeric;
  block_number: bigint;
  found_at: Timestamp;
  from_address: string;
  log_index: number;
  to_address: string;
  token: string;
  tx_hash: string;
}

export interface ColdTransfers {
  amount: bigint;
  created_at: Timestamp;
  failure: string | null;
  finished_at: Timestamp | null;
  id: string;
  status: string;
  to_address: string;
  token: string;
  tx_hash: string | null;
}

export interface ConsoleSessions {
  created_at: Timestamp;
  ended_at: Timestamp | null;
  last_seen_at: Timestamp;
  operator_id: string;
  token_hash: string;
}

export interface CustodyChecks {
  block_number: bigint;
  books_minor: Numeric;
  chain_minor: Numeric;
  checked_at: Timestamp;
  failing_since: Timestamp | null;
  ok: boolean;
  token: string;
}

export interface Disputes {
  amount: bigint;
  closed_at: Timestamp | null;
  currency: string;
  dispute_fee: bigint;
  fee_taken: bigint;
  id: string;
  opened_at: Timestamp;
  processor_ref: string;
  reason: string;
  recipient_account_id: number;
  sender_account_id: number;
  status: string;
  taken: bigint;
  transfer_id: string;
}

export interface Events {
  account_id: number;
  created_at: Timestamp;
  data: ColumnType<unknown, string, string>;
  id: string;
  seq: Generated<bigint>;
  subject_id: string;
  type: string;
  xid: Generated<string>;
}

export interface FiatHolds {
  account_id: number;
  amount: bigint;
  created_at: Timestamp;
  currency: string;
  id: string;
  release_at: Timestamp;
  released_at: Timestamp | null;
  remaining: bigint;
  transfer_id: string;
}

export interface FiatTransfers {
  amount: bigint;
  check_at: Timestamp | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  currency: string;
  failure_code: string | null;
  fee: bigint;
  id: string;
  idempotency_key: string | null;
  instrument_ref: string | null;
  locked_until: Timestamp | null;
  note: string | null;
  payment_method: string;
  processor_ref: string | null;
  recipient_account_id: number;
  sender_account_id: number;
  settles_at: Timestamp | null;
  status: string;
}

export interface HotWalletOutbox {
  block_number: bigint | null;
  broadcast_attempts: Generated<number>;
  circle_amount: bigint | null;
  circle_destination: string | null;
  circle_state: string | null;
  circle_token: string | null;
  circle_transaction_id: string | null;
  circle_wallet_id: string | null;
  created_at: Timestamp;
  current_since: Timestamp | null;
  finished_at: Timestamp | null;
  id: string;
  last_broadcast_at: Timestamp | null;
  last_error: string | null;
  locked_until: Timestamp | null;
  nonce: bigint | null;
  provider: Generated<string>;
  purpose: string;
  raw_tx: string | null;
  reference_id: string;
  sender: string;
  status: string;
  tx_hash: string | null;
}

export interface HotWalletOutboxReplaced {
  outbox_id: string;
  raw_tx: string;
  replaced_at: Timestamp;
  tx_hash: string;
}

export interface IdempotencyKeys {
  account_id: number;
  created_at: Generated<Timestamp>;
  key: string;
  locked_at: Generated<Timestamp>;
  request_hash: string;
  response_body: string | null;
  response_status: number | null;
  state: string;
}

export interface InstallationIdentity {
  chain_block1_hash: string;
  chain_id: number;
  id: number;
  recorded_at: Timestamp;
  seed_fingerprint: string;
}

export interface LedgerAccounts {
  allow_negative: boolean;
  asset: string;
  balance: Generated<bigint>;
  code: string;
  id: Generated<number>;
  kind: string;
  owner_account_id: number | null;
  pending_credits: Generated<bigint>;
  pending_debits: Generated<bigint>;
}

export interface LedgerTransfers {
  amount: bigint;
  asset: string;
  code: string;
  created_at: Generated<Timestamp>;
  credit_account_id: number;
  debit_account_id: number;
  id: Generated<bigint>;
  kind: string;
  operation_id: string;
  pending_transfer_id: bigint | null;
}

export interface LimitVolume {
  account_id: number;
  currency: string;
  span: string;
  starts_at: Timestamp;
  volume: bigint;
}

export interface Links {
  account_id: number;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id: Generated<number>;
  outcome: string | null;
  payload: string | null;
  processor_ref: string | null;
  purpose: string;
  reconcile_at: Timestamp | null;
  token_hash: string;
  used_at: Timestamp | null;
}

export interface McpConfirmations {
  account_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  id_hash: string;
  terms_hash: string;
  used_at: Timestamp | null;
}

export interface Operators {
  created_at: Timestamp;
  created_by: string;
  disabled_at: Timestamp | null;
  enrolled_at: Timestamp | null;
  enrolment_expires_at: Timestamp | null;
  enrolment_token_hash: string | null;
  failed_sign_ins: Generated<number>;
  id: string;
  locked_until: Timestamp | null;
  name: string;
  password_hash: string | null;
  role: string;
  token_hash: string;
  totp_last_step: bigint | null;
  totp_pending: string | null;
  totp_secret: string | null;
}

export interface PayoutPauses {
  account_id: number;
  cause: string;
  created_at: Timestamp;
  id: Generated<bigint>;
  lifted_at: Timestamp | null;
  ref: string;
}

export interface PayoutReversals {
  account_id: number;
  amount: bigint;
  created_at: Timestamp;
  currency: string;
  id: string;
  note: string;
  payout_id: string;
  processor_ref: string;
  request_hash: string;
}

export interface Payouts {
  account_id: number;
  amount: bigint;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  currency: string;
  failure_code: string | null;
  id: string;
  instrument_ref: string | null;
  locked_until: Timestamp | null;
  processor_ref: string | null;
  status: string;
}

export interface ProcessorCustomers {
  account_id: number;
  bank_debit_ref: string | null;
  card_ref: string | null;
  customer_ref: string;
  payout_account_ref: string | null;
  payout_ref: string | null;
}

export interface ProcessorEvents {
  id: string;
  received_at: Timestamp;
  type: string;
}

export interface Refunds {
  amount: bigint;
  created_at: Timestamp;
  currency: string;
  fee: bigint;
  id: string;
  idempotency_key: string | null;
  note: string | null;
  origin: string;
  processor_ref: string | null;
  reason: string;
  request_hash: string | null;
  status: string;
  transfer_id: string;
  undone_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface ReviewItems {
  account_id: number;
  created_at: Timestamp;
  id: string;
  kind: string;
  ref: string;
  status: string;
  transfer_id: string | null;
}

export interface SandboxCharges {
  amount: bigint;
  created_at: Generated<Timestamp>;
  currency: string;
  idempotency_key: string;
  instrument_ref: string;
  kind: string;
  ref: string;
  settles_at: Timestamp | null;
  status: string;
}

export interface SandboxClock {
  id: number;
  offset_ms: bigint;
}

export interface SandboxInstruments {
  behaviour: string;
  created_at: Generated<Timestamp>;
  customer_ref: string;
  kind: string;
  ref: string;
}

export interface SandboxPayoutReversals {
  amount: bigint;
  created_at: Timestamp;
  idempotency_key: string;
  payout_ref: string;
  ref: string;
}

export interface SandboxRefunds {
  amount: bigint;
  charge_ref: string;
  created_at: Timestamp;
  currency: string;
  idempotency_key: string | null;
  ref: string;
  refund_id: string | null;
  status: string;
}

export interface Snapshots {
  asset: string;
  metric: string;
  rail: string;
  taken_at: Timestamp;
  value: bigint;
}

export interface StablecoinTransfers {
  amount: bigint;
  created_at: Timestamp;
  currency: string;
  fee: bigint;
  id: string;
  idempotency_key: string | null;
  recipient_account_id: number;
  sender_account_id: number;
  status: string;
}

export interface WebhookAttempts {
  attempt: number;
  attempted_at: Timestamp;
  delivery_id: bigint;
  duration_ms: number;
  endpoint_id: string;
  error: string | null;
  id: Generated<bigint>;
  status_code: number | null;
  succeeded: boolean;
}

export interface WebhookDeliveries {
  attempts: Generated<number>;
  created_at: Timestamp;
  endpoint_id: string;
  event_seq: bigint;
  finished_at: Timestamp | null;
  id: Generated<bigint>;
  locked_until: Timestamp | null;
  next_attempt_at: Timestamp;
  status: string;
}

export interface WebhookEndpoints {
  account_id: number;
  created_at: Timestamp;
  events: ColumnType<unknown, string, string> | null;
  failing_since: Timestamp | null;
  id: string;
  secret_salt: string;
  status: string;
  url: string;
}

export interface WithdrawalAddresses {
  account_id: number;
  address: string;
  updated_at: Timestamp;
}

export interface Withdrawals {
  account_id: number;
  address: string;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  currency: string;
  failure_code: string | null;
  fee: bigint;
  gross: bigint;
  id: string;
  idempotency_key: string | null;
  net: bigint;
  status: string;
  tx_hash: string | null;
  wait_reported_at: Timestamp | null;
  waiting_since: Timestamp | null;
}

export interface X402Payments {
  account_id: number | null;
  amount: bigint;
  asset: string;
  authorization_nonce: string | null;
  created_at: Timestamp;
  endpoint: string;
  failure_reason: string | null;
  id: string;
  pay_to: string | null;
  payer: string | null;
  protocol_version: number | null;
  settled_at: Timestamp | null;
  source: string;
  status: string;
  tx_hash: string | null;
  valid_before: bigint | null;
}

export interface DB {
  account_limit_overrides: AccountLimitOverrides;
  accounts: Accounts;
  api_keys: ApiKeys;
  audit_log: AuditLog;
  chain_deposits: ChainDeposits;
  chain_nonces: ChainNonces;
  chain_scan_cursors: ChainScanCursors;
  chain_sweeps: ChainSweeps;
  circle_custody: CircleCustody;
  circle_inbound_cursor: CircleInboundCursor;
  cold_outflows: ColdOutflows;
  cold_transfers: ColdTransfers;
  console_sessions: ConsoleSessions;
  custody_checks: CustodyChecks;
  disputes: Disputes;
  events: Events;
  fiat_holds: FiatHolds;
  fiat_transfers: FiatTransfers;
  hot_wallet_outbox: HotWalletOutbox;
  hot_wallet_outbox_replaced: HotWalletOutboxReplaced;
  idempotency_keys: IdempotencyKeys;
  installation_identity: InstallationIdentity;
  ledger_accounts: LedgerAccounts;
  ledger_transfers: LedgerTransfers;
  limit_volume: LimitVolume;
  links: Links;
  mcp_confirmations: McpConfirmations;
  operators: Operators;
  payout_pauses: PayoutPauses;
  payout_reversals: PayoutReversals;
  payouts: Payouts;
  processor_customers: ProcessorCustomers;
  processor_events: ProcessorEvents;
  refunds: Refunds;
  review_items: ReviewItems;
  sandbox_charges: SandboxCharges;
  sandbox_clock: SandboxClock;
  sandbox_instruments: SandboxInstruments;
  sandbox_payout_reversals: SandboxPayoutReversals;
  sandbox_refunds: SandboxRefunds;
  snapshots: Snapshots;
  stablecoin_transfers: StablecoinTransfers;
  webhook_attempts: WebhookAttempts;
  webhook_deliveries: WebhookDeliveries;
  webhook_endpoints: WebhookEndpoints;
  withdrawal_addresses: WithdrawalAddresses;
  withdrawals: Withdrawals;
  x402_payments: X402Payments;
}
