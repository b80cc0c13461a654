// The stand-in's memory: wallet sets, wallets (each with the key Circle would hold), tokens and
// transactions, shaped as Circle answers them. Times come from the injected clock.
import type { Address, Hash, Hex, PrivateKeyAccount } from 'viem';

export type Blockchain = 'MATIC' | 'MATIC-AMOY';
export type AccountType = 'SCA' | 'EOA';
export type TransactionState = 'INITIATED' | 'QUEUED' | 'SENT' | 'CONFIRMED' | 'COMPLETE' | 'FAILED';

export interface WalletSetRecord {
  id: string;
  custodyType: 'DEVELOPER';
  name: string;
  createDate: string;
  updateDate: string;
}

export interface WalletRecord {
  id: string;
  state: 'LIVE';
  walletSetId: string;
  custodyType: 'DEVELOPER';
  address: Address;
  blockchain: Blockchain;
  accountType: AccountType;
  refId: string;
  name: string;
  createDate: string;
  updateDate: string;
  /** The key Circle holds for the wallet; never in an answer. */
  account: PrivateKeyAccount;
}

export interface TokenRecord {
  id: string;
  blockchain: Blockchain;
  tokenAddress?: Address;
  standard?: 'ERC20';
  name: string;
  symbol: string;
  decimals: number;
  isNative: boolean;
  createDate: string;
  updateDate: string;
}

export interface TransactionRecord {
  id: string;
  transactionType: 'INBOUND' | 'OUTBOUND';
  operation: 'TRANSFER' | 'CONTRACT_EXECUTION';
  state: TransactionState;
  blockchain: Blockchain;
  custodyType: 'DEVELOPER';
  walletId: string;
  tokenId?: string;
  sourceAddress: Address;
  destinationAddress?: Address;
  contractAddress?: Address;
  amounts: string[];
  /** Base units of `amounts[0]`, for the executor. */
  amount: bigint;
  abiFunctionSignature?: string;
  abiParameters?: (string | boolean)[];
  feeLevel?: 'LOW' | 'MEDIUM' | 'HIGH';
  refId: string;
  txHash?: Hash;
  blockHash?: Hash;
  blockHeight?: number;
  errorReason?: string;
  createDate: string;
  updateDate: string;
  firstConfirmDate?: string;
  /** Order of creation, for lists of equal createDate. */
  sequence: number;
  /** For an inbound transfer: the log it came from. */
  log?: { txHash: Hash; logIndex: number };
  /** For a contract execution: the encoded call. */
  callData?: Hex;
}

export interface Store {
  walletSets: Map<string, WalletSetRecord>;
  wallets: Map<string, WalletRecord>;
  tokens: Map<string, TokenRecord>;
  transactions: Map<string, TransactionRecord>;
  nextSequence: number;
}

export function createStore(): Store {
  return { walletSets: new Map(), wallets: new Map(), tokens: new Map(), transactions: new Map(), nextSequence: 1 };
}

/** A wallet as Circle answers it (no key). */
export function walletView(wallet: WalletRecord): Record<string, unknown> {
  const { account: _account, ...view } = wallet;
  return wallet.accountType === 'SCA' ? { ...view, scaCore: 'circle_6900_singleowner_v2' } : view;
}

/** A transaction as Circle answers it and notifies it. */
export function transactionView(tx: TransactionRecord): Record<string, unknown> {
  const { amount: _amount, sequence: _sequence, log: _log, callData: _callData, ...view } = tx;
  return view;
}
