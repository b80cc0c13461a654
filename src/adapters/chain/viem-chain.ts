// The viem chain description for an RPC URL. peerpay talks to one chain at a time, Polygon PoS
// (chain id 137) in both modes, so only the id and the URL vary.
import { defineChain, type Chain } from 'viem';

export function chainFor(options: { chainId: number; rpcUrl: string }): Chain {
  return defineChain({
    id: options.chainId,
    name: options.chainId === 137 ? 'Polygon' : `chain ${options.chainId}`,
    nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
}
