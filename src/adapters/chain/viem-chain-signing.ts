// Signing token calls and their replacements over viem: the gas estimate (which also catches a
// call that would revert), the fee bounded by the configured cap, and the signature.
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  keccak256,
  parseTransaction,
  type Address,
  type EncodeFunctionDataParameters,
  type EstimateContractGasParameters,
  type Hex,
  type LocalAccount,
} from 'viem';
import { ChainRevertError, type SignedTransaction, type TransferAuthorization } from './chain-adapter.js';
import { fullTokenAbi } from './token-abi.js';
import { splitSignature } from './transfer-authorization.js';
import type { ChainPublicClient } from './viem-public-client.js';

// Estimates can be slightly low when state moves between estimate and inclusion (a first transfer
// to an address costs more than a later one); the unused part of the limit is not charged.
const GAS_MARGIN_PERCENT = 120n;

export type TokenWrite =
  | { functionName: 'transfer'; args: readonly [Address, bigint] }
  | { functionName: 'mint'; args: readonly [Address, bigint] }
  | {
      functionName: 'transferWithAuthorization';
      args: readonly [Address, Address, bigint, bigint, bigint, Hex, number, Hex, Hex];
    };

export type SignContractCall = (call: TokenWrite & { sender: LocalAccount; token: Address; nonce: number }) => Promise<SignedTransaction>;

interface SigningOptions {
  chainId: number;
  /** No transaction is signed offering more than this per gas; unset, no cap. */
  maxFeePerGasWei?: bigint;
}

export function chainSigning(publicClient: ChainPublicClient, options: SigningOptions) {
  const cappedFees = () => cappedFeesOf(publicClient, options.maxFeePerGasWei);

  const signContractCall: SignContractCall = async (call) => {
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
  };

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

  return { signContractCall, signReplacement };
}

/** The node's fee estimate, bounded by the configured cap (the priority fee never above the max fee). */
async function cappedFeesOf(
  publicClient: ChainPublicClient,
  cap: bigint | undefined,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const estimate = await publicClient.estimateFeesPerGas();
  const maxFeePerGas = cap !== undefined && estimate.maxFeePerGas > cap ? cap : estimate.maxFeePerGas;
  const maxPriorityFeePerGas = estimate.maxPriorityFeePerGas > maxFeePerGas ? maxFeePerGas : estimate.maxPriorityFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

export function authorizedTransferCall(authorization: TransferAuthorization) {
  const { v, r, s } = splitSignature(authorization.signature);
  const { from, to, value, validAfter, validBefore, nonce } = authorization;
  return { functionName: 'transferWithAuthorization', args: [from, to, value, validAfter, validBefore, nonce, v, r, s] } as const;
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
