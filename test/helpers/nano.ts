// Helpers for x402 tests: payers funded with sandbox USDC (they never need gas), the two published
// clients (x402-fetch for v1, @x402/fetch with @x402/evm for v2), hand-made payment headers for
// the refusal cases, and reads of on-chain balances and of what peerpay recorded.
import { sql } from 'kysely';
import { createPublicClient, getAddress, http, type Address, type Hash, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { toClientEvmSigner } from '@x402/evm';
import { randomBytes } from 'node:crypto';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
import type { TestServer } from './test-server.js';

export const SEARCH_PRICE = 1000n;
export const LOOKUP_PRICE = 100n;
export const QUOTE_PRICE = 100n;

export async function waitMined(server: TestServer, hash: Hash): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const outcome = await server.deps.chain.chain.getTransactionOutcome(hash);
    if (outcome) {
      if (outcome.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} not mined`);
}

/** A fresh account holding `amount` sandbox USDC base units and no native currency at all. */
export async function fundedPayer(server: TestServer, amount = 1_000_000n): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  const sandbox = server.deps.chain.sandboxChain;
  if (!sandbox) throw new Error('the test server has no sandbox chain');
  const hash = await sandbox.mint({
    token: server.deps.chain.tokens.USDC,
    minter: server.deps.wallets.sandboxTokenOwner,
    to: account.address,
    amount,
  });
  await waitMined(server, hash);
  return account;
}

export function usdcOf(server: TestServer, holder: Address): Promise<bigint> {
  return server.deps.chain.chain.getTokenBalance({ token: server.deps.chain.tokens.USDC, holder });
}

export function nativeOf(server: TestServer, holder: Address): Promise<bigint> {
  return server.deps.chain.chain.getNativeBalance(holder);
}

export function payToOf(server: TestServer): Address {
  return getAddress(server.deps.config.x402PayTo ?? server.deps.wallets.hotWallet.address);
}

/** x402 v1 client: x402-fetch with a viem account (it signs for network "polygon", chain 137). */
export function v1Fetch(account: LocalAccount): typeof fetch {
  return wrapFetchV1(fetch, account, 10_000n) as typeof fetch;
}

/** x402 v2 client: @x402/fetch with @x402/evm's exact scheme; its reads go to the embedded chain. */
export function v2Fetch(server: TestServer, account: LocalAccount): typeof fetch {
  const publicClient = createPublicClient({
    chain: chainFor({ chainId: 137, rpcUrl: server.deps.chain.rpcUrl }),
    transport: http(server.deps.chain.rpcUrl),
  });
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(account, publicClient) });
  return wrapFetchV2(fetch, client);
}

/** Wraps fetch so that a test can see (and replay) the payment headers a client sent. */
export function recordingFetch(sent: Headers[]): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(new Headers(request.headers));
    return fetch(request);
  };
}

export function decodeBase64Json(value: string | null): any {
  if (value === null) throw new Error('header missing');
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
}

export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

export interface AuthorizationOverrides {
  to?: Address;
  value?: bigint;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  chainId?: number;
  verifyingContract?: Address;
}

/** A v1 X-PAYMENT header signed by `account`, with any field changed, for the refusal tests. */
export async function handMadeV1Header(
  server: TestServer,
  account: LocalAccount,
  price: bigint,
  overrides: AuthorizationOverrides = {},
): Promise<string> {
  const { authorization, signature } = await signAuthorization(server, account, price, overrides);
  return encodeBase64Json({ x402Version: 1, scheme: 'exact', network: 'polygon', payload: { signature, authorization } });
}

export async function signAuthorization(server: TestServer, account: LocalAccount, price: bigint, overrides: AuthorizationOverrides = {}) {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message = {
    from: account.address,
    to: overrides.to ?? payToOf(server),
    value: overrides.value ?? price,
    validAfter: overrides.validAfter ?? now - 600n,
    validBefore: overrides.validBefore ?? now + 60n,
    nonce: overrides.nonce ?? `0x${randomBytes(32).toString('hex')}`,
  };
  const signature = await account.signTypedData({
    domain: {
      name: 'USD Coin',
      version: '2',
      chainId: overrides.chainId ?? 137,
      verifyingContract: overrides.verifyingContract ?? server.deps.chain.tokens.USDC,
    },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message,
  });
  return {
    signature,
    authorization: {
      from: message.from,
      to: message.to,
      value: message.value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
      nonce: message.nonce,
    },
  };
}

/** What peerpay recorded: x402 payments by status, x402 revenue and chain custody of USDC. */
export async function x402Books(
  server: TestServer,
): Promise<{ settled: number; failed: number; settling: number; revenue: bigint; custody: bigint }> {
  const db = server.deps.db;
  const counts = await sql<{ status: string; n: string }>`select status, count(*)::text as n from x402_payments group by status`.execute(
    db,
  );
  const balances = await sql<{ code: string; balance: string }>`
    select code, balance::text from ledger_accounts where code in ('platform:x402_revenue:USDC', 'platform:chain_custody:USDC')`.execute(
    db,
  );
  const count = (status: string) => Number(counts.rows.find((r) => r.status === status)?.n ?? 0);
  const balance = (code: string) => BigInt(balances.rows.find((r) => r.code === code)?.balance ?? '0');
  return {
    settled: count('settled'),
    failed: count('failed'),
    settling: count('settling'),
    revenue: balance('platform:x402_revenue:USDC'),
    custody: balance('platform:chain_custody:USDC'),
  };
}
