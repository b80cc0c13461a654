// What every x402 payment to peerpay must say: the chain, the token (USDC) with its EIP-712 domain,
// the receiving address and how long a client may take. Built once from the configuration.
import { getAddress, isAddressEqual, zeroAddress, type Address } from 'viem';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';

/** x402 v1 names networks; v2 uses CAIP-2 ids. Only the Polygon names matter to peerpay. */
const V1_NETWORK_NAMES: Readonly<Record<number, string>> = { 137: 'polygon', 80002: 'polygon-amoy' };

/**
 * The EIP-712 domain of native USDC on Polygon (and of the sandbox USDC, which copies it). Clients
 * sign over it, so the 402 answer names it in `extra`; verification uses the same values, and
 * a token whose domain differs fails its signature check rather than being trusted.
 */
export const USDC_EIP712 = Object.freeze({ name: 'USD Coin', version: '2' });

/** A client that needs longer than this between the 402 and its paid retry signs a new payment. */
export const MAX_TIMEOUT_SECONDS = 60;

export interface X402Terms {
  readonly chainId: number;
  /** "polygon" for chain 137; null on a chain that x402 v1 has no name for (v1 is then not offered). */
  readonly networkV1: string | null;
  /** "eip155:137". */
  readonly networkV2: `eip155:${number}`;
  readonly asset: Address;
  readonly payTo: Address;
  readonly eip712: { readonly name: string; readonly version: string };
  readonly maxTimeoutSeconds: number;
}

export function x402TermsOf(deps: { config: Config; chain: ChainConnection; wallets: WalletProvider }): X402Terms {
  // The hot wallet by default: the money arrives where peerpay's custody already is (see
  // settle-payment.ts for how the ledger counts it).
  const payTo = getAddress(deps.config.x402PayTo ?? deps.wallets.hotWallet.address);
  if (isAddressEqual(payTo, zeroAddress)) throw new Error('PAY_TO must not be the zero address');
  const chainId = deps.chain.chainId;
  return Object.freeze({
    chainId,
    networkV1: V1_NETWORK_NAMES[chainId] ?? null,
    networkV2: `eip155:${chainId}` as const,
    asset: getAddress(deps.chain.tokens.USDC),
    payTo,
    eip712: USDC_EIP712,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
  });
}
