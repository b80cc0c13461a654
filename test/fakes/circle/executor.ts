// What Circle does with an outbound transaction, done for real on the test's chain: the wallet's
// own key (held here, as Circle holds it) signs a token transfer or a contract call. An SCA
// wallet's gas is paid by the stand-in, as Circle's Gas Station pays it (on anvil the stand-in's
// "gas tank" is anvil_setBalance); an EOA wallet must hold its own gas, or the transaction FAILS.
// States: INITIATED → QUEUED → SENT (txHash) → CONFIRMED → COMPLETE, or FAILED when the balance is
// short or the chain reverts. Each change is notified (transactions.outbound).
import { createWalletClient, encodeFunctionData, http, parseAbiItem, type AbiFunction, type Hash, type Hex } from 'viem';
import { ChainRevertError, type SandboxChainAdapter } from '../../../src/adapters/chain/chain-adapter.js';
import type { ChainPublicClient } from '../../../src/adapters/chain/viem-public-client.js';
import { chainFor } from '../../../src/adapters/chain/viem-chain.js';
import type { TransactionRecord, TransactionState, WalletRecord } from './store.js';

/** What an SCA wallet is given for gas before it sends, when it has less than half of it. */
const GAS_GRANT_WEI = 10n ** 18n;

export interface ExecutorParts {
  rpcUrl: string;
  chainId: number;
  chain: SandboxChainAdapter;
  publicClient: ChainPublicClient;
  /** Null for the native token. */
  tokenAddress(tokenId: string): `0x${string}` | null;
  setState(tx: TransactionRecord, state: TransactionState, changes?: Partial<TransactionRecord>): void;
}

/** Encodes a contract call from Circle's abiFunctionSignature and string parameters; throws if they do not fit. */
export function encodeContractCall(signature: string, parameters: readonly (string | boolean)[]): Hex {
  const fn = parseAbiItem(`function ${signature}`) as AbiFunction;
  if (fn.inputs.length !== parameters.length)
    throw new Error(`${signature} takes ${fn.inputs.length} parameters, not ${parameters.length}`);
  const args = fn.inputs.map((input, i) => {
    const value = parameters[i];
    if (/^u?int\d*$/.test(input.type)) return BigInt(value as string);
    if (input.type === 'bool') return value === true || value === 'true';
    return value;
  });
  return encodeFunctionData({ abi: [fn], functionName: fn.name, args });
}

export async function executeOutbound(parts: ExecutorParts, tx: TransactionRecord, wallet: WalletRecord): Promise<void> {
  parts.setState(tx, 'QUEUED');
  if (wallet.accountType === 'SCA') {
    const gas = await parts.chain.getNativeBalance(wallet.address);
    if (gas < GAS_GRANT_WEI / 2n) await parts.chain.setNativeBalance({ address: wallet.address, wei: GAS_GRANT_WEI });
  }
  let hash: Hash;
  try {
    hash = await send(parts, tx, wallet);
  } catch (error) {
    parts.setState(tx, 'FAILED', { errorReason: failureReason(error) });
    return;
  }
  parts.setState(tx, 'SENT', { txHash: hash });
  const receipt = await parts.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 30_000 });
  const mined = { blockHash: receipt.blockHash, blockHeight: Number(receipt.blockNumber) };
  if (receipt.status !== 'success') {
    parts.setState(tx, 'FAILED', { ...mined, errorReason: 'FAILED_ON_CHAIN' });
    return;
  }
  parts.setState(tx, 'CONFIRMED', mined);
  parts.setState(tx, 'COMPLETE');
}

async function send(parts: ExecutorParts, tx: TransactionRecord, wallet: WalletRecord): Promise<Hash> {
  const nonce = await parts.chain.getNonce({ address: wallet.address, blockTag: 'pending' });
  const client = createWalletClient({
    account: wallet.account,
    chain: chainFor({ chainId: parts.chainId, rpcUrl: parts.rpcUrl }),
    transport: http(parts.rpcUrl),
  });
  const token = tx.operation === 'TRANSFER' ? parts.tokenAddress(tx.tokenId!) : null;
  // The native token (POL): a value transfer signed by the wallet's key, paying its own gas; a
  // wallet short of value plus gas fails INSUFFICIENT_NATIVE_TOKEN, as at Circle.
  if (tx.operation === 'TRANSFER' && token === null) return client.sendTransaction({ to: tx.destinationAddress!, value: tx.amount, nonce });
  if (tx.operation === 'TRANSFER') {
    return parts.chain.sendTokenTransfer({
      token: token!,
      sender: wallet.account,
      to: tx.destinationAddress!,
      amount: tx.amount,
      nonce,
    });
  }
  // Circle estimates first and fails a call that would revert without sending it.
  await parts.publicClient.call({ account: wallet.address, to: tx.contractAddress!, data: tx.callData! });
  return client.sendTransaction({ to: tx.contractAddress!, data: tx.callData!, nonce });
}

function failureReason(error: unknown): string {
  if (error instanceof ChainRevertError) {
    return error.reason === 'InsufficientBalance' ? 'INSUFFICIENT_TOKEN' : 'EXECUTION_REVERTED';
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/insufficient funds/i.test(message)) return 'INSUFFICIENT_NATIVE_TOKEN';
  if (/revert/i.test(message)) return 'EXECUTION_REVERTED';
  return 'FAILED';
}
