// Circle's answers in peerpay's terms: wallets, balances and transactions with EIP-55 addresses,
// bigint base units and Dates. Circle names a transaction's token by its id, so a transaction is
// read with the token directory (GET /v1/w3s/tokens/{id}, cached), which also says how many
// decimals its amount has. The native token (POL on Polygon) has no address: it reads as the zero
// address, which is never one of peerpay's tokens.
import { getAddress, zeroAddress, type Address, type Hash } from 'viem';
import { decimalToBaseUnits } from './circle-amounts.js';
import type { CircleTokenBalance, CircleTransaction, CircleTransactionState, CircleWallet } from './circle-port.js';

export interface CircleTokenInfo {
  tokenAddress: Address;
  decimals: number;
}

/** The token fields Circle sends inside a balance and answers for GET /v1/w3s/tokens/{id}. */
export interface WireToken {
  id: string;
  tokenAddress?: string;
  decimals?: number;
  isNative: boolean;
}

export interface WireWallet {
  id: string;
  address: string;
  refId?: string;
}

export interface WireTransaction {
  id: string;
  transactionType: string;
  state: string;
  walletId?: string;
  tokenId?: string;
  sourceAddress?: string;
  destinationAddress?: string;
  amounts?: string[];
  txHash?: string;
  blockHeight?: number;
  refId?: string;
  createDate: string;
  updateDate: string;
}

/** A transaction with no token (a contract execution) counts in the native token's 18 decimals. */
export const NO_TOKEN: CircleTokenInfo = { tokenAddress: zeroAddress, decimals: 18 };

export class CircleWireError extends Error {
  override name = 'CircleWireError';
}

export function tokenInfo(token: WireToken): CircleTokenInfo {
  if (token.decimals === undefined) throw new CircleWireError(`Circle token ${token.id} has no decimals`);
  const tokenAddress = token.isNative || !token.tokenAddress ? zeroAddress : getAddress(token.tokenAddress);
  return { tokenAddress, decimals: token.decimals };
}

export function readWallet(wallet: WireWallet): CircleWallet {
  return { id: wallet.id, address: getAddress(wallet.address), refId: wallet.refId ?? '' };
}

export function readBalance(balance: { amount: string; token: WireToken }): CircleTokenBalance {
  const token = tokenInfo(balance.token);
  return { tokenAddress: token.tokenAddress, amount: decimalToBaseUnits(balance.amount, token.decimals) };
}

const STATES: ReadonlySet<string> = new Set<CircleTransactionState>([
  'INITIATED',
  'PENDING_RISK_SCREENING',
  'QUEUED',
  'SENT',
  'CONFIRMED',
  'CLEARED',
  'STUCK',
  'COMPLETE',
  'FAILED',
  'CANCELLED',
  'DENIED',
]);

function readDate(value: string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new CircleWireError(`Circle transaction ${field} is not a date: ${value}`);
  return date;
}

function sum(amounts: readonly string[], decimals: number): bigint {
  return amounts.reduce((total, amount) => total + decimalToBaseUnits(amount, decimals), 0n);
}

/** A transaction, given its token (looked up by the caller from tokenId). */
export function readTransaction(wire: WireTransaction, token: CircleTokenInfo): CircleTransaction {
  if (wire.transactionType !== 'INBOUND' && wire.transactionType !== 'OUTBOUND') {
    throw new CircleWireError(`Circle transaction ${wire.id} has type ${wire.transactionType}`);
  }
  if (!STATES.has(wire.state)) throw new CircleWireError(`Circle transaction ${wire.id} has state ${wire.state}`);
  const address = (value: string | undefined): Address => (value ? getAddress(value) : zeroAddress);
  return {
    id: wire.id,
    transactionType: wire.transactionType,
    state: wire.state as CircleTransactionState,
    walletId: wire.walletId ?? '',
    tokenAddress: token.tokenAddress,
    sourceAddress: address(wire.sourceAddress),
    destinationAddress: address(wire.destinationAddress),
    amount: sum(wire.amounts ?? [], token.decimals),
    txHash: wire.txHash ? (wire.txHash as Hash) : null,
    blockHeight: wire.blockHeight === undefined ? null : BigInt(wire.blockHeight),
    refId: wire.refId ? wire.refId : null,
    createDate: readDate(wire.createDate, 'createDate'),
    updateDate: readDate(wire.updateDate, 'updateDate'),
  };
}
