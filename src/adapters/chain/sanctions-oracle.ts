// Reads an on-chain sanctions oracle (`isSanctioned(address) view returns (bool)`: Chainalysis's
// on Polygon, or the sandbox's stand-in) over the chain's RPC. One attempt, bounded by `timeoutMs`:
// the caller (screening) decides what a missing answer means, and a request waiting on it must
// cost seconds at most. Any failure (a node that does not answer, an address without code, an
// answer that does not decode) is thrown, never read as "not sanctioned".
import { createPublicClient, http, type Address } from 'viem';
import { sanctionsOracleAbi } from './sanctions-oracle-abi.js';
import { chainFor } from './viem-chain.js';

export interface SanctionsOracle {
  readonly address: Address;
  isSanctioned(address: Address): Promise<boolean>;
}

export function createSanctionsOracle(options: { rpcUrl: string; chainId: number; address: Address; timeoutMs: number }): SanctionsOracle {
  const client = createPublicClient({
    chain: chainFor(options),
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 0 }),
    cacheTime: 0,
  });
  return {
    address: options.address,
    isSanctioned: (address) =>
      client.readContract({ address: options.address, abi: sanctionsOracleAbi, functionName: 'isSanctioned', args: [address] }),
  };
}
