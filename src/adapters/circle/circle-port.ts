// What peerpay asks of Circle's developer-controlled wallets (DESIGN §19), in peerpay's terms:
// amounts are bigint token base units (the adapter converts Circle's decimal strings exactly),
// addresses are EIP-55, times are Dates. The implementation (circle-client.ts) makes exactly the
// SDK calls §19 lists; the in-repo stand-in (test/fakes/circle) answers them as Circle does.
import type { Address, Hash } from 'viem';

/** Circle's transaction states. COMPLETE is done; FAILED, CANCELLED, DENIED failed; the rest are under way. */
export type CircleTransactionState =
  | 'INITIATED'
  | 'PENDING_RISK_SCREENING'
  | 'QUEUED'
  | 'SENT'
  | 'CONFIRMED'
  | 'CLEARED'
  | 'STUCK'
  | 'COMPLETE'
  | 'FAILED'
  | 'CANCELLED'
  | 'DENIED';

export type CircleOutcome = 'complete' | 'failed' | 'under_way';

export function circleOutcome(state: CircleTransactionState): CircleOutcome {
  if (state === 'COMPLETE') return 'complete';
  if (state === 'FAILED' || state === 'CANCELLED' || state === 'DENIED') return 'failed';
  return 'under_way';
}

export interface CircleWallet {
  /** Circle's wallet id (a UUID): peerpay's stablecoinWalletId. */
  id: string;
  address: Address;
  /** The refId peerpay gave it: an account id, or 'treasury'. */
  refId: string;
}

export interface CircleTokenBalance {
  /** The native token (POL) reads as the zero address, never one of peerpay's tokens. */
  tokenAddress: Address;
  /** Base units of the token (6 decimals for USDC and EURC). */
  amount: bigint;
}

export interface CircleTransaction {
  /** Circle's transaction id (a UUID). */
  id: string;
  transactionType: 'INBOUND' | 'OUTBOUND';
  state: CircleTransactionState;
  walletId: string;
  /** The zero address for the native token or for a contract execution (which moves no token). */
  tokenAddress: Address;
  sourceAddress: Address;
  destinationAddress: Address;
  /** Base units. */
  amount: bigint;
  /** Known once broadcast. */
  txHash: Hash | null;
  blockHeight: bigint | null;
  /** The refId peerpay gave an outbound transfer; null for inbound ones. */
  refId: string | null;
  createDate: Date;
  updateDate: Date;
}

export interface CircleTransferRequest {
  walletId: string;
  /** A stablecoin's contract, or null for the chain's native token (POL on MATIC: gas for an EOA wallet). */
  tokenAddress: Address | null;
  destinationAddress: Address;
  /** Base units (6 decimals for a stablecoin, 18 for the native token); sent to Circle as an exact decimal string. */
  amount: bigint;
  /** What the transfer is for (an outbox entry's purpose and reference). */
  refId: string;
  /** The outbox entry's id as a UUID: a retried or repeated request is the same transfer at Circle. */
  idempotencyKey: string;
}

export interface CircleContractExecutionRequest {
  walletId: string;
  contractAddress: Address;
  /** e.g. 'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)'. */
  abiFunctionSignature: string;
  abiParameters: readonly (string | boolean)[];
  refId: string;
  idempotencyKey: string;
}

/**
 * One page of GET /v1/w3s/transactions. Circle lists newest first and pages by id: pageAfter names
 * the next (older) page, null at the end (decision 0045).
 */
export interface CircleTransactionPage {
  transactions: CircleTransaction[];
  pageAfter: string | null;
}

/**
 * Circle's API as peerpay uses it. Every call retries Circle's 429 and 5xx answers and network
 * failures (bounded, with backoff) with the same idempotency key, and throws CircleApiError when
 * Circle refuses (4xx) or the retries are spent.
 */
export interface CircleApi {
  createWalletSet(input: { name: string; idempotencyKey: string }): Promise<{ id: string }>;
  /** POST /v1/w3s/developer/wallets, count 1, metadata [{refId}]; the same idempotency key gives the same wallet. */
  createWallet(input: { walletSetId: string; refId: string; idempotencyKey: string }): Promise<CircleWallet>;
  getWallet(id: string): Promise<CircleWallet>;
  getBalances(walletId: string): Promise<CircleTokenBalance[]>;
  createTransfer(request: CircleTransferRequest): Promise<{ id: string; state: CircleTransactionState }>;
  createContractExecution(request: CircleContractExecutionRequest): Promise<{ id: string; state: CircleTransactionState }>;
  getTransaction(id: string): Promise<CircleTransaction>;
  listTransactions(query: {
    txType?: 'INBOUND' | 'OUTBOUND';
    walletIds?: readonly string[];
    from?: Date;
    to?: Date;
    pageSize?: number;
    pageAfter?: string;
  }): Promise<CircleTransactionPage>;
}

/** A `transactions.inbound` (or other) notification whose signature checked out. */
export interface CircleNotification {
  notificationId: string;
  notificationType: string;
  /** The transaction, for transactions.* notifications. */
  transaction: CircleTransaction | null;
}

/**
 * Verifies X-Circle-Signature (base64 ECDSA-SHA256 over the raw body) with the public key named by
 * X-Circle-Key-Id (GET /v2/notifications/publicKey/{id}, cached per key id). Returns null when the
 * signature, the key id or the body is bad: the route answers 400 and changes nothing.
 */
export interface CircleNotificationVerifier {
  verify(input: { rawBody: Buffer; keyId: string | undefined; signature: string | undefined }): Promise<CircleNotification | null>;
}

/** Circle refused a call (4xx other than 429), or the retries for 429/5xx/network failures ran out. */
export class CircleApiError extends Error {
  override name = 'CircleApiError';
  constructor(
    message: string,
    /** HTTP status, or null for a network failure. */
    readonly status: number | null,
    /** Circle's numeric error code, when it sent one. */
    readonly code: number | null,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
