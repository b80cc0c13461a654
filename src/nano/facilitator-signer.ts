// The chain access @x402/evm's exact-scheme facilitator needs (FacilitatorEvmSigner), wired to
// peerpay's discipline: reads go to the node directly (viem), but the one write it makes, the
// transferWithAuthorization relay, goes through the hot wallet outbox — the only sender of hot
// wallet transactions, which hands out nonces — with the payment's (payer, nonce) as reference,
// so a relay is recorded before it is broadcast and is never signed twice. The receipt wait is
// bounded (SETTLE_WAIT_MS) and polls the chain adapter.
import type { FacilitatorEvmSigner } from '@x402/evm';
import { createPublicClient, getAddress, http, isAddressEqual, serializeSignature, type Address, type Hash, type Hex } from 'viem';
import type { TransferAuthorization } from '../adapters/chain/chain-adapter.js';
import { chainFor } from '../adapters/chain/viem-chain.js';
import { sendFromHotWallet } from '../stablecoin/outbox/hot-wallet-outbox.js';
import { x402OutboxReference } from './x402-reference.js';
import type { X402Terms } from './x402-terms.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** How long a paid request waits for its relay to be mined before answering without serving. */
export const SETTLE_WAIT_MS = 15_000;
const POLL_START_MS = 25;
const POLL_MAX_MS = 500;

type SignerDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock };

export function hotWalletFacilitatorSigner(deps: SignerDeps, terms: X402Terms): FacilitatorEvmSigner {
  const client = createPublicClient({
    chain: chainFor({ chainId: deps.chain.chainId, rpcUrl: deps.chain.rpcUrl }),
    transport: http(deps.chain.rpcUrl, { timeout: 10_000 }),
    cacheTime: 0,
  });
  return {
    getAddresses: () => [deps.wallets.relayer.address],
    // The library passes ABIs of its own choosing (the token's EIP-3009 functions, ERC-1271); viem
    // checks each call against the ABI it is given.
    readContract: (args) => client.readContract(args),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    getCode: ({ address }) => client.getCode({ address }),
    writeContract: (args) => relayThroughOutbox(deps, terms, args),
    async sendTransaction() {
      // Only needed to deploy a payer's smart wallet (ERC-6492), which peerpay does not allow.
      throw new Error('peerpay relays only transferWithAuthorization for x402 payments');
    },
    waitForTransactionReceipt: ({ hash }) => waitUntilMined(deps, hash, SETTLE_WAIT_MS),
  };
}

type WriteArgs = Parameters<FacilitatorEvmSigner['writeContract']>[0];

async function relayThroughOutbox(deps: SignerDeps, terms: X402Terms, args: WriteArgs): Promise<Hex> {
  if (args.functionName !== 'transferWithAuthorization' || !isAddressEqual(args.address, terms.asset)) {
    throw new Error(`peerpay relays only transferWithAuthorization on ${terms.asset}`);
  }
  if (args.dataSuffix !== undefined && args.dataSuffix !== '0x') throw new Error('peerpay does not append data to x402 relays');
  const authorization = authorizationOf(args.args);
  const { txHash } = await sendFromHotWallet(deps, {
    purpose: 'x402',
    referenceId: x402OutboxReference(authorization.from, authorization.nonce),
    sign: (nonce) => deps.chain.chain.signAuthorizedTransfer({ token: terms.asset, relayer: deps.wallets.relayer, authorization, nonce }),
  });
  return txHash;
}

/** The library's call arguments: (from, to, value, validAfter, validBefore, nonce, v, r, s) or (…, nonce, signature). */
function authorizationOf(args: readonly unknown[]): TransferAuthorization {
  const [from, to, value, validAfter, validBefore, nonce, ...rest] = args;
  let signature: Hex;
  if (rest.length === 3) {
    const [v, r, s] = rest as [number | bigint, Hex, Hex];
    signature = serializeSignature({ r, s, v: BigInt(v) });
  } else if (rest.length === 1 && typeof rest[0] === 'string') {
    signature = rest[0] as Hex;
  } else {
    throw new Error('unexpected transferWithAuthorization arguments');
  }
  return {
    from: getAddress(from as Address),
    to: getAddress(to as Address),
    value: BigInt(value as bigint),
    validAfter: BigInt(validAfter as bigint),
    validBefore: BigInt(validBefore as bigint),
    nonce: nonce as Hex,
    signature,
  };
}

/** Polls until the transaction is in a block; throws after `timeoutMs` (the library then reports it pending). */
export async function waitUntilMined(deps: { chain: ChainConnection }, hash: Hash, timeoutMs: number): Promise<{ status: string }> {
  const deadline = Date.now() + timeoutMs;
  let pollMs = POLL_START_MS;
  for (;;) {
    const outcome = await deps.chain.chain.getTransactionOutcome(hash);
    if (outcome) return { status: outcome.status };
    if (Date.now() + pollMs > deadline) throw new Error(`transaction ${hash} was not mined within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(pollMs * 2, POLL_MAX_MS);
  }
}
