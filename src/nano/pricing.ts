// The micro-endpoints and their prices, in one table: the status document, the 402 answers, the
// payment checks and the OpenAPI descriptions all read it, so a price is stated exactly once.
// Prices are bigint base units of USDC (6 decimals): 0.001 USDC is 1000.
import { formatMinorTrimmed } from '../money/amount.js';

export type NanoEndpointName = 'search' | 'lookup' | 'quote';

export interface NanoEndpoint {
  readonly name: NanoEndpointName;
  readonly method: 'GET';
  readonly path: `/nano/${NanoEndpointName}`;
  readonly priceMinor: bigint;
  readonly params: readonly string[];
  readonly description: string;
}

export const NANO_ENDPOINTS: Readonly<Record<NanoEndpointName, NanoEndpoint>> = Object.freeze({
  search: {
    name: 'search',
    method: 'GET',
    path: '/nano/search',
    priceMinor: 1000n,
    params: ['q', 'website'],
    description: 'Search the public directory of peerpay users who opted in, by name or handle and by website',
  },
  lookup: {
    name: 'lookup',
    method: 'GET',
    path: '/nano/lookup',
    priceMinor: 100n,
    params: ['email', 'handle'],
    description: 'Does a peerpay account exist for this e-mail or handle? Its handle and first name',
  },
  quote: {
    name: 'quote',
    method: 'GET',
    path: '/nano/quote',
    priceMinor: 100n,
    params: ['amount', 'currency', 'action'],
    description: 'What a transfer, withdrawal or card/ACH payment of this amount would cost on peerpay',
  },
});

/** "GET /nano/search": how the status document and the payment records name an endpoint. */
export function endpointKey(endpoint: NanoEndpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/** The price as the status document prints it: 1000n → "0.001". */
export function priceText(endpoint: NanoEndpoint): string {
  return formatMinorTrimmed(endpoint.priceMinor, 'USDC');
}

/** An amount of USDC as a person reads it, with the base units the protocol counts: "0.0001 USDC (100 base units)". */
export function usdcText(minor: bigint): string {
  return `${formatMinorTrimmed(minor, 'USDC')} USDC (${minor} base units)`;
}
