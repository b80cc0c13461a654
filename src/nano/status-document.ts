// The status document of the micro-endpoints (GET /nano and GET /.well-known/x402): what they
// cost, in what, paid to whom, on which network. Prices come from pricing.ts as decimal strings.
import { endpointKey, NANO_ENDPOINTS, priceText } from './pricing.js';
import type { X402Terms } from './x402-terms.js';

export interface StatusDocument {
  status: 'ok';
  service: string;
  protocol: 'x402';
  version: 1;
  network: string;
  asset: string;
  payTo: string;
  endpoints: Record<string, { price: string; params: string[] }>;
  docs: string;
}

export function statusDocument(terms: X402Terms, publicUrl: string): StatusDocument {
  const endpoints: StatusDocument['endpoints'] = {};
  for (const endpoint of Object.values(NANO_ENDPOINTS)) {
    endpoints[endpointKey(endpoint)] = { price: priceText(endpoint), params: [...endpoint.params] };
  }
  return {
    status: 'ok',
    service: 'peerpay',
    protocol: 'x402',
    version: 1,
    network: terms.networkV2,
    asset: terms.asset,
    payTo: terms.payTo,
    endpoints,
    docs: `${publicUrl}/docs`,
  };
}
