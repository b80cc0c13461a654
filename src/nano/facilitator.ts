// Who verifies and settles x402 payments: the built-in facilitator (@x402/core's x402Facilitator
// with @x402/evm's exact scheme for both protocol versions, settling through the hot wallet outbox)
// or, when X402_FACILITATOR_URL is set, an external facilitator spoken to over its /verify and
// /settle HTTP API with @x402/core's HTTPFacilitatorClient. Both take the same arguments and
// answer the same VerifyResponse / SettleResponse. The built-in one's modules (@x402/evm and the
// core's facilitator) load on the first payment it verifies, not at start (decision 0054).
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { x402Facilitator } from '@x402/core/facilitator';
import {
  SettleError,
  VerifyError,
  type PaymentPayload,
  type PaymentPayloadV1,
  type PaymentRequirements,
  type PaymentRequirementsV1,
  type SettleResponse,
  type VerifyResponse,
} from '@x402/core/types';
import type { FacilitatorEvmSigner } from '@x402/evm';
import { hotWalletFacilitatorSigner } from './facilitator-signer.js';
import { loadOnce } from '../platform/load-once.js';
import type { X402Terms } from './x402-terms.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface NanoFacilitator {
  readonly kind: 'built-in' | 'external';
  verify(payload: PaymentPayload | PaymentPayloadV1, requirements: PaymentRequirements | PaymentRequirementsV1): Promise<VerifyResponse>;
  settle(payload: PaymentPayload | PaymentPayloadV1, requirements: PaymentRequirements | PaymentRequirementsV1): Promise<SettleResponse>;
}

/** Bounds each call to an external facilitator; a settle that times out is treated as pending. */
const EXTERNAL_TIMEOUT_MS = 20_000;

export function createNanoFacilitator(
  deps: { config: Config; db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock },
  terms: X402Terms,
): NanoFacilitator {
  // The library's v1 and v2 types differ only in field names; both facilitators dispatch on
  // x402Version, so the payload and requirements of either version are passed through as they are.
  type AnyPayload = PaymentPayload;
  type AnyRequirements = PaymentRequirements;
  if (deps.config.x402FacilitatorUrl) {
    const client = new HTTPFacilitatorClient({ url: deps.config.x402FacilitatorUrl, timeoutMs: EXTERNAL_TIMEOUT_MS });
    return {
      kind: 'external',
      // A facilitator that refuses with a non-2xx status still answers a VerifyResponse or
      // SettleResponse, which the client raises as an error: it is an answer, not a failure to talk.
      verify: (payload, requirements) =>
        client.verify(payload as AnyPayload, requirements as AnyRequirements).catch((error: unknown) => {
          if (error instanceof VerifyError) return { isValid: false, invalidReason: error.invalidReason, payer: error.payer };
          throw error;
        }),
      settle: (payload, requirements) =>
        client.settle(payload as AnyPayload, requirements as AnyRequirements).catch((error: unknown) => {
          if (error instanceof SettleError) {
            return {
              success: false,
              errorReason: error.errorReason,
              transaction: error.transaction ?? '',
              network: error.network ?? requirements.network,
            };
          }
          throw error;
        }),
    };
  }
  const signer = hotWalletFacilitatorSigner(deps, terms);
  const facilitator = loadOnce(() => builtInFacilitator(signer, terms));
  return {
    kind: 'built-in',
    verify: async (payload, requirements) => (await facilitator()).verify(payload as AnyPayload, requirements as AnyRequirements),
    settle: async (payload, requirements) => (await facilitator()).settle(payload as AnyPayload, requirements as AnyRequirements),
  };
}

/** @x402/core's facilitator with @x402/evm's exact scheme for both protocol versions, loaded now. */
async function builtInFacilitator(signer: FacilitatorEvmSigner, terms: X402Terms): Promise<x402Facilitator> {
  const [{ x402Facilitator }, { ExactEvmScheme }, { ExactEvmSchemeV1 }] = await Promise.all([
    import('@x402/core/facilitator'),
    import('@x402/evm/exact/facilitator'),
    import('@x402/evm/exact/v1/facilitator'),
  ]);
  const facilitator = new x402Facilitator();
  // No ERC-6492 factories: peerpay settles payments of deployed accounts (EOAs) only.
  facilitator.register(terms.networkV2, new ExactEvmScheme(signer, { eip6492AllowedFactories: [] }));
  if (terms.networkV1)
    facilitator.registerV1(
      terms.networkV1 as PaymentRequirementsV1['network'],
      new ExactEvmSchemeV1(signer, { eip6492AllowedFactories: [] }),
    );
  return facilitator;
}
