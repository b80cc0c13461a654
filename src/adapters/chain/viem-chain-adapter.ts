// The chain adapter over an RPC URL, built on viem. Sandbox and live mode run this same code; the
// sandbox variant adds minting and gas grants, which only the embedded anvil chain allows.
import {
  BaseError,
  BlockNotFoundError,
  ContractFunctionRevertedError,
  TransactionReceiptNotFoundError,
  createPublicClient,
  createTestClient,
  encodeFunctionData,
  getAddress,
  http,
  keccak256,
  parseAbiItem,
  parseTransaction,
  type Address,
  type EncodeFunctionDataParameters,
  type EstimateContractGasParameters,
  type Hash,
  type Hex,
  type LocalAccount,
} from 'viem';
import {
  ChainRevertError,
  type ChainAdapter,
  type SandboxChainAdapter,
  type SignedTransaction,
  type TokenTransferLog,
  type TransferAuthorization,
} from './chain-adapter.js';
import { fullTokenAbi } from './token-abi.js';
import { splitSignature } from './transfer-authorization.js';
import { chainFor } from './viem-chain.js';

export interface ViemChainAdapterOptions {
  rpcUrl: string;
  chainId: number;
  /** Most blocks one getTransferLogs call may span; public Polygon RPCs refuse wide ranges. */
  maxLogBlockRange?: bigint;
  /** Most recipient (or sender) addresses one getTransferLogs call may filter on. */
  maxLogRecipients?: number;
  requestTimeoutMs?: number;
  /** No transaction is signed offering more than this per gas (CHAIN_MAX_FEE_PER_GAS_WEI); unset, no cap. */
  maxFeePerGasWei?: bigint;
}

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

// Estimates can be slightly low when state moves between estimate and inclusion (a first transfer
// to an address costs more than a later one); the unused part of the limit is not charged.
const GAS_MARGIN_PERCENT = 120n;

export function createViemChainAdapter(options: ViemChainAdapterOptions): ChainAdapter {
  return buildAdapter(options).adapter;
}

export function createViemSandboxChainAdapter(options: ViemChainAdapterOptions): SandboxChainAdapter {
  const { adapter, publicClient, signContractCall, broadcast } = buildAdapter(options);
  const testClient = createTestClient({ chain: publicClient.chain, transport: http(options.rpcUrl), mode: 'anvil' });
  // Mints by one minter run one at a time, each with the next pending nonce, so that concurrent
  // faucet calls never race for a nonce.
  const mintQueues = new Map<Address, Promise<unknown>>();
  return {
    ...adapter,
    mint({ token, minter, to, amount }) {
      const previous = mintQueues.get(minter.address) ?? Promise.resolve();
      const next = previous
        .catch(() => undefined)
        .then(async () => {
          const nonce = await publicClient.getTransactionCount({ address: minter.address, blockTag: 'pending' });
          return broadcast(await signContractCall({ sender: minter, token, functionName: 'mint', args: [to, amount], nonce }));
        });
      mintQueues.set(minter.address, next);
      void next
        .finally(() => {
          if (mintQueues.get(minter.address) === next) mintQueues.delete(minter.address);
        })
        .catch(() => undefined);
      return next;
    },
    async setNativeBalance({ address, wei }) {
      await testClient.setBalance({ address, value: wei });
    },
  };
}

type TokenWrite =
  | { functionName: 'transfer'; args: readonly [Address, bigint] }
  | { functionName: 'mint'; args: readonly [Address, bigint] }
  | {
      functionName: 'transferWithAuthorization';
      args: readonly [Address, Address, bigint, bigint, bigint, Hex, number, Hex, Hex];
    };

function buildAdapter(options: ViemChainAdapterOptions) {
  const maxLogBlockRange = options.maxLogBlockRange ?? 2000n;
  const maxLogRecipients = options.maxLogRecipients ?? 1000;
  const chain = chainFor(options);
  const publicClient = createPublicClient({
    chain,
    // Bounded: a withdrawal request waits on the node while a client waits on peerpay, so a hung node
    // must cost seconds, not viem's default of 10 s times four attempts. Jobs retry on their next
    // round anyway, so one retry here is enough for a dropped connection.
    transport: http(options.rpcUrl, { timeout: options.requestTimeoutMs ?? 4_000, retryCount: 1 }),
    // No cached answers: the block number must be the node's current one every time it is asked.
    cacheTime: 0,
  });

  async function signContractCall(call: TokenWrite & { sender: LocalAccount; token: Address; nonce: number }): Promise<SignedTransaction> {
    // viem cannot infer argument types across a union of function names; TokenWrite types them.
    const contractCall = { abi: fullTokenAbi, functionName: call.functionName, args: call.args } as unknown as EncodeFunctionDataParameters;
    let gas: bigint;
    try {
      // The estimate runs the call, so a transfer that would revert fails here, before signing.
      gas = await publicClient.estimateContractGas({
        ...contractCall,
        address: call.token,
        account: call.sender.address,
      } as EstimateContractGasParameters);
    } catch (error) {
      throw asRevertError(error, `${call.functionName} on ${call.token}`);
    }
    const fees = await cappedFees();
    const serialized = await call.sender.signTransaction({
      chainId: options.chainId,
      type: 'eip1559',
      to: call.token,
      data: encodeFunctionData(contractCall),
      value: 0n,
      nonce: call.nonce,
      gas: (gas * GAS_MARGIN_PERCENT) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return { hash: keccak256(serialized), serialized, from: call.sender.address, nonce: call.nonce };
  }

  /** The node's fee estimate, bounded by the configured cap (the priority fee never above the max fee). */
  async function cappedFees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    const estimate = await publicClient.estimateFeesPerGas();
    const cap = options.maxFeePerGasWei;
    const maxFeePerGas = cap !== undefined && estimate.maxFeePerGas > cap ? cap : estimate.maxFeePerGas;
    const maxPriorityFeePerGas = estimate.maxPriorityFeePerGas > maxFeePerGas ? maxFeePerGas : estimate.maxPriorityFeePerGas;
    return { maxFeePerGas, maxPriorityFeePerGas };
  }

  async function signReplacement(input: { sender: LocalAccount; serialized: Hex; bumpPercent: bigint }): Promise<SignedTransaction | null> {
    const old = parseTransaction(input.serialized);
    if (old.type !== 'eip1559' || old.nonce === undefined || old.maxFeePerGas === undefined || old.maxPriorityFeePerGas === undefined)
      throw new Error('only EIP-1559 transactions signed by peerpay are replaced');
    const bump = (fee: bigint) => (fee * (100n + input.bumpPercent)) / 100n + 1n;
    const current = await cappedFees();
    const max = (a: bigint, b: bigint) => (a > b ? a : b);
    let maxFeePerGas = max(bump(old.maxFeePerGas), current.maxFeePerGas);
    let maxPriorityFeePerGas = max(bump(old.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
    const cap = options.maxFeePerGasWei;
    if (cap !== undefined && maxFeePerGas > cap) maxFeePerGas = cap;
    if (maxPriorityFeePerGas > maxFeePerGas) maxPriorityFeePerGas = maxFeePerGas;
    // A node takes a replacement only if both fees rise by its minimum bump (10% for geth and anvil).
    if (maxFeePerGas < bump(old.maxFeePerGas) || maxPriorityFeePerGas < bump(old.maxPriorityFeePerGas)) return null;
    const serialized = await input.sender.signTransaction({
      chainId: options.chainId,
      type: 'eip1559',
      to: old.to ?? null,
      data: old.data ?? '0x',
      value: old.value ?? 0n,
      nonce: old.nonce,
      gas: old.gas ?? 0n,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    return { hash: keccak256(serialized), serialized, from: input.sender.address, nonce: old.nonce };
  }

  async function broadcast(transaction: SignedTransaction): Promise<Hash> {
    try {
      const hash = await publicClient.sendRawTransaction({ serializedTransaction: transaction.serialized });
      if (hash !== transaction.hash) throw new Error(`the node named transaction ${transaction.hash} ${hash}`);
      return hash;
    } catch (error) {
      // Sent before (a retry after a timeout or a crash): the node already has it, mined or pending.
      const known = await publicClient.getTransaction({ hash: transaction.hash }).then(
        () => true,
        () => false,
      );
      if (known) return transaction.hash;
      throw error;
    }
  }

  function authorizedTransferCall(authorization: TransferAuthorization) {
    const { v, r, s } = splitSignature(authorization.signature);
    const { from, to, value, validAfter, validBefore, nonce } = authorization;
    return { functionName: 'transferWithAuthorization', args: [from, to, value, validAfter, validBefore, nonce, v, r, s] } as const;
  }

  const adapter: ChainAdapter = {
    chainId: options.chainId,

    getChainId: () => publicClient.getChainId(),

    getBlockNumber: () => publicClient.getBlockNumber(),

    async getBlock(blockNumber) {
      try {
        const block = await publicClient.getBlock({ blockNumber });
        return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
      } catch (error) {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      }
    },

    getTokenBalance: ({ token, holder, blockNumber }) =>
      publicClient.readContract({
        address: token,
        abi: fullTokenAbi,
        functionName: 'balanceOf',
        args: [holder],
        ...(blockNumber === undefined ? {} : { blockNumber }),
      }),

    getNativeBalance: (address) => publicClient.getBalance({ address }),

    async getTokenDomain(token) {
      const [name, version] = await Promise.all([
        publicClient.readContract({ address: token, abi: fullTokenAbi, functionName: 'name' }),
        publicClient.readContract({ address: token, abi: fullTokenAbi, functionName: 'version' }),
      ]);
      return { name, version, chainId: options.chainId, verifyingContract: getAddress(token) };
    },

    getAuthorizationState: ({ token, authorizer, nonce }) =>
      publicClient.readContract({ address: token, abi: fullTokenAbi, functionName: 'authorizationState', args: [authorizer, nonce] }),

    getNonce: ({ address, blockTag }) => publicClient.getTransactionCount({ address, blockTag }),

    async getTransferLogs({ tokens, recipients, senders, fromBlock, toBlock }) {
      if (fromBlock < 0n || toBlock < fromBlock) throw new RangeError(`bad block range ${fromBlock}..${toBlock}`);
      if (toBlock - fromBlock + 1n > maxLogBlockRange) {
        throw new RangeError(`block range ${fromBlock}..${toBlock} is wider than ${maxLogBlockRange} blocks`);
      }
      const addresses = recipients ?? senders;
      if (addresses.length > maxLogRecipients) {
        throw new RangeError(`${addresses.length} ${recipients ? 'recipients' : 'senders'} in one query; at most ${maxLogRecipients}`);
      }
      if (tokens.length === 0 || addresses.length === 0) return [];
      const logs = await publicClient.getLogs({
        address: [...tokens],
        event: transferEvent,
        args: recipients ? { to: [...recipients] } : { from: [...senders] },
        fromBlock,
        toBlock,
        strict: true,
      });
      const seen = new Set<string>();
      const transfers: TokenTransferLog[] = [];
      for (const log of logs) {
        // Logs of blocks that a reorg removed are not transfers; pending ones have no position yet.
        if (log.removed || log.blockNumber === null || log.logIndex === null || log.transactionHash === null) continue;
        const key = `${log.transactionHash}:${log.logIndex}`;
        if (seen.has(key)) continue;
        seen.add(key);
        transfers.push({
          token: getAddress(log.address),
          from: log.args.from,
          to: log.args.to,
          value: log.args.value,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          txHash: log.transactionHash,
          logIndex: log.logIndex,
        });
      }
      return transfers.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
    },

    signTokenTransfer: ({ token, sender, to, amount, nonce }) =>
      signContractCall({ sender, token, nonce, functionName: 'transfer', args: [to, amount] }),

    signAuthorizedTransfer: ({ token, relayer, authorization, nonce }) =>
      signContractCall({ sender: relayer, token, nonce, ...authorizedTransferCall(authorization) }),

    signReplacement,

    broadcast,

    async sendTokenTransfer(transfer) {
      return broadcast(await adapter.signTokenTransfer(transfer));
    },

    async relayTransferWithAuthorization(relay) {
      return broadcast(await adapter.signAuthorizedTransfer(relay));
    },

    async getTransactionOutcome(hash) {
      let receipt;
      try {
        receipt = await publicClient.getTransactionReceipt({ hash });
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return null;
        throw error;
      }
      const head = await publicClient.getBlockNumber();
      const confirmations = head >= receipt.blockNumber ? head - receipt.blockNumber + 1n : 0n;
      return { status: receipt.status, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, confirmations };
    },
  };

  return { adapter, publicClient, signContractCall, broadcast };
}

/** Turns a simulated revert into ChainRevertError with the contract's reason; other errors pass. */
function asRevertError(error: unknown, what: string): unknown {
  if (!(error instanceof BaseError)) return error;
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError)) return error;
  // Error(string) reverts (Circle's tokens) carry a reason; custom errors (the sandbox token) a name.
  const reason = revert.data && revert.data.errorName !== 'Error' ? revert.data.errorName : revert.reason;
  return new ChainRevertError(`${what} would revert: ${reason ?? 'no reason given'}`, reason, { cause: error });
}
