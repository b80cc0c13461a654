// All of peerpay's chain access goes through this interface: the same implementation (viem over an
// RPC URL) serves the embedded sandbox chain and Polygon. Amounts are bigint token base units.
// Signers are viem LocalAccounts, which sign without ever exposing their private key, so an
// account object that ends up in a log line reveals only its address.
import type { Address, Hash, Hex, LocalAccount } from 'viem';

export interface TokenTransferLog {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
  blockNumber: bigint;
  blockHash: Hash;
  txHash: Hash;
  /** Position of the log in its block: (txHash, logIndex) names one transfer for ever. */
  logIndex: number;
}

/** Which Transfer events getTransferLogs reads: those to some addresses, or those from some. */
export type TransferLogQuery = {
  tokens: readonly Address[];
  fromBlock: bigint;
  toBlock: bigint;
} & ({ recipients: readonly Address[]; senders?: never } | { senders: readonly Address[]; recipients?: never });

export interface BlockHeader {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  /** Seconds since the epoch. */
  timestamp: bigint;
}

/** What a token's EIP-712 signatures are bound to. */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

/** A signed EIP-3009 TransferWithAuthorization, ready for anyone to relay. */
export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  signature: Hex;
}

/**
 * A transaction signed but not necessarily sent. Its hash is known before broadcasting, so a caller
 * can record hash and raw bytes first and, after a crash, broadcast the very same transaction
 * again instead of signing a second one.
 */
export interface SignedTransaction {
  hash: Hash;
  serialized: Hex;
  from: Address;
  nonce: number;
}

export interface TransactionOutcome {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  blockHash: Hash;
  /** 1 when the transaction is in the newest block. */
  confirmations: bigint;
}

export interface ChainAdapter {
  /** The chain id this adapter signs for. */
  readonly chainId: number;
  /** The chain id the node reports (a health check compares it with chainId). */
  getChainId(): Promise<number>;
  getBlockNumber(): Promise<bigint>;
  getBlock(blockNumber: bigint): Promise<BlockHeader | null>;
  /** The holder's balance at the newest block, or at `blockNumber` (several reads at one block agree with each other). */
  getTokenBalance(options: { token: Address; holder: Address; blockNumber?: bigint }): Promise<bigint>;
  getNativeBalance(address: Address): Promise<bigint>;
  /** The node's estimate of the fee per gas a transaction sent now would pay at most, in wei. */
  getMaxFeePerGas(): Promise<bigint>;
  getTokenDomain(token: Address): Promise<TokenDomain>;
  getAuthorizationState(options: { token: Address; authorizer: Address; nonce: Hex }): Promise<boolean>;
  getNonce(options: { address: Address; blockTag: 'latest' | 'pending' }): Promise<number>;
  /**
   * Transfer events of `tokens` to any of `recipients` (or from any of `senders`) in [fromBlock,
   * toBlock], each once, ordered by block and log index. The range and the address list are
   * bounded (RangeError beyond).
   */
  getTransferLogs(options: TransferLogQuery): Promise<TokenTransferLog[]>;
  /** Signs token.transfer(to, amount) from `sender` with this nonce; throws ChainRevertError if it would revert. */
  signTokenTransfer(options: {
    token: Address;
    sender: LocalAccount;
    to: Address;
    amount: bigint;
    nonce: number;
  }): Promise<SignedTransaction>;
  /** Signs token.transferWithAuthorization(...) sent by `relayer`, who pays the gas. */
  signAuthorizedTransfer(options: {
    token: Address;
    relayer: LocalAccount;
    authorization: TransferAuthorization;
    nonce: number;
  }): Promise<SignedTransaction>;
  /**
   * Signs `serialized` again with the same nonce, call and gas limit and a higher fee (each fee at
   * least `bumpPercent` above the old one, and at least the node's estimate), within the adapter's
   * fee cap: a replacement for a transaction that is stuck. null when the cap leaves no room to bump.
   */
  signReplacement(options: { sender: LocalAccount; serialized: Hex; bumpPercent: bigint }): Promise<SignedTransaction | null>;
  /** Sends a signed transaction; sending one the node already has is not an error. */
  broadcast(transaction: SignedTransaction): Promise<Hash>;
  sendTokenTransfer(options: { token: Address; sender: LocalAccount; to: Address; amount: bigint; nonce: number }): Promise<Hash>;
  relayTransferWithAuthorization(options: {
    token: Address;
    relayer: LocalAccount;
    authorization: TransferAuthorization;
    nonce: number;
  }): Promise<Hash>;
  /** null while the transaction is not in a block. */
  getTransactionOutcome(hash: Hash): Promise<TransactionOutcome | null>;
}

/** What only the embedded chain can do: create test tokens and grant gas. */
export interface SandboxChainAdapter extends ChainAdapter {
  /** token.mint(to, amount) by its owner or a minter; the nonce is taken in order per minter. */
  mint(options: { token: Address; minter: LocalAccount; to: Address; amount: bigint }): Promise<Hash>;
  /** anvil_setBalance: gives an address native currency for gas. */
  setNativeBalance(options: { address: Address; wei: bigint }): Promise<void>;
}

/** The node refused a transaction because it would revert; nothing was sent. */
export class ChainRevertError extends Error {
  override name = 'ChainRevertError';
  constructor(
    message: string,
    /** The contract's error name (sandbox token) or revert string (Circle's tokens), when known. */
    readonly reason: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
