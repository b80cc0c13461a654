// The payment requirements of a micro-endpoint in both protocol versions, and the 402 answer that
// carries them: the v1 body (x402Version 1, network "polygon", maxAmountRequired) for x402 v1
// clients, and the v2 PaymentRequired (network "eip155:137", amount) base64-encoded in the
// PAYMENT-REQUIRED header, encoded by @x402/core so that v2 clients read exactly what they expect.
import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements, PaymentRequirementsV1 } from '@x402/core/types';
import type { NanoEndpoint } from './pricing.js';
import type { X402Terms } from './x402-terms.js';

const MIME_TYPE = 'application/json';

export function requirementsV1(terms: X402Terms, endpoint: NanoEndpoint, resourceUrl: string): PaymentRequirementsV1 | null {
  if (terms.networkV1 === null) return null;
  return {
    scheme: 'exact',
    network: terms.networkV1 as PaymentRequirementsV1['network'],
    maxAmountRequired: endpoint.priceMinor.toString(),
    resource: resourceUrl,
    description: endpoint.description,
    mimeType: MIME_TYPE,
    outputSchema: {},
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    asset: terms.asset,
    extra: { name: terms.eip712.name, version: terms.eip712.version },
  };
}

export function requirementsV2(terms: X402Terms, endpoint: NanoEndpoint): PaymentRequirements {
  return {
    scheme: 'exact',
    network: terms.networkV2,
    amount: endpoint.priceMinor.toString(),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.eip712.name, version: terms.eip712.version },
  };
}

export interface PaymentRequiredAnswer {
  /** The x402 v1 body members (the route merges them into its problem document). */
  body: { x402Version: 1; error: string; accepts: PaymentRequirementsV1[] };
  /** Response headers: PAYMENT-REQUIRED, the base64 v2 PaymentRequired. */
  headers: Record<string, string>;
}

/** What a 402 carries: `error` is a reason string of the x402 specification or why payment is needed. */
export function paymentRequiredAnswer(terms: X402Terms, endpoint: NanoEndpoint, resourceUrl: string, error: string): PaymentRequiredAnswer {
  const v1 = requirementsV1(terms, endpoint, resourceUrl);
  const v2: PaymentRequired = {
    x402Version: 2,
    error,
    resource: { url: resourceUrl, description: endpoint.description, mimeType: MIME_TYPE },
    accepts: [requirementsV2(terms, endpoint)],
  };
  return {
    body: { x402Version: 1, error, accepts: v1 ? [v1] : [] },
    headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(v2) },
  };
}
