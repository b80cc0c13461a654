// The calls DESIGN §19 lets peerpay make, each with every parameter it takes (anything else is
// refused) and what it does. POSTs carry an entity secret ciphertext and an idempotency key
// (checked in server.ts); answers are {data: …} as Circle sends them.
import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decimalToBaseUnits } from '../../../src/adapters/circle/circle-amounts.js';
import { circleErrors } from './errors.js';
import { encodeContractCall } from './executor.js';
import { checks, optional, required, type ParamSpecs } from './params.js';
import type { AccountType, Blockchain, Store, TokenRecord, TransactionRecord, WalletRecord } from './store.js';
import { transactionView, walletView } from './store.js';
import { listTransactions } from './transaction-list.js';

export interface RouteContext {
  store: Store;
  blockchain: Blockchain;
  now(): string;
  entityPublicKeyPem: string;
  notificationKey: { id: string; publicKeyBase64: string; createDate: string };
  balanceOf(wallet: WalletRecord, token: TokenRecord): Promise<bigint>;
  /** A new outbound transaction: stored as INITIATED and notified. */
  initiate(tx: TransactionRecord): void;
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  params: ParamSpecs;
  /** 201 for what a POST creates, 200 otherwise. */
  status: number;
  run(ctx: RouteContext, params: Record<string, unknown>, id: string | undefined): Promise<unknown>;
}

const POST_COMMON: ParamSpecs = { idempotencyKey: required(checks.idempotencyKey), entitySecretCiphertext: required(checks.string) };
const ID = '([^/]+)';

function wallet(ctx: RouteContext, id: unknown): WalletRecord {
  const found = typeof id === 'string' ? ctx.store.wallets.get(id) : undefined;
  if (found === undefined) throw circleErrors.walletNotFound();
  return found;
}

function tokenByAddress(ctx: RouteContext, address: string): TokenRecord {
  const token = [...ctx.store.tokens.values()].find(
    (t) => t.tokenAddress !== undefined && t.tokenAddress.toLowerCase() === address.toLowerCase(),
  );
  if (token === undefined) throw circleErrors.parameter('tokenAddress', 'Invalid token address for transfer.');
  return token;
}

function nativeToken(ctx: RouteContext): TokenRecord {
  const token = [...ctx.store.tokens.values()].find((t) => t.isNative);
  if (token === undefined) throw circleErrors.tokenNotFound();
  return token;
}

function checkBlockchain(ctx: RouteContext, blockchain: unknown): void {
  if (blockchain !== undefined && blockchain !== ctx.blockchain) throw circleErrors.blockchain();
}

function amountOf(ctx: RouteContext, amounts: unknown, token: TokenRecord): bigint {
  let amount: bigint;
  try {
    amount = decimalToBaseUnits((amounts as string[])[0]!, token.decimals);
  } catch {
    throw circleErrors.parameter('amounts', 'Invalid amounts in transfer request.');
  }
  if (amount <= 0n) throw circleErrors.parameter('amounts', 'Invalid amounts in transfer request.');
  return amount;
}

function newOutbound(ctx: RouteContext, from: WalletRecord, fields: Partial<TransactionRecord>): TransactionRecord {
  const at = ctx.now();
  return {
    id: randomUUID(),
    transactionType: 'OUTBOUND',
    operation: 'TRANSFER',
    state: 'INITIATED',
    blockchain: ctx.blockchain,
    custodyType: 'DEVELOPER',
    walletId: from.id,
    sourceAddress: from.address,
    amounts: [],
    amount: 0n,
    refId: '',
    createDate: at,
    updateDate: at,
    sequence: ctx.store.nextSequence++,
    ...fields,
  };
}

const walletSetRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/w3s\/developer\/walletSets$/,
    params: { ...POST_COMMON, name: optional(checks.string) },
    status: 201,
    async run(ctx, params) {
      const at = ctx.now();
      const set = {
        id: randomUUID(),
        custodyType: 'DEVELOPER' as const,
        name: (params.name as string | undefined) ?? '',
        createDate: at,
        updateDate: at,
      };
      ctx.store.walletSets.set(set.id, set);
      return { walletSet: set };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/w3s/walletSets/${ID}$`),
    params: {},
    status: 200,
    async run(ctx, _params, id) {
      const set = ctx.store.walletSets.get(id!);
      if (set === undefined) throw circleErrors.walletSetNotFound();
      return { walletSet: set };
    },
  },
];

const walletRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/w3s\/developer\/wallets$/,
    params: {
      ...POST_COMMON,
      walletSetId: required(checks.uuid),
      blockchains: required(checks.stringArray),
      count: optional(checks.integer(1, 200)),
      accountType: optional(checks.oneOf('SCA', 'EOA')),
      metadata: optional(checks.array),
    },
    status: 201,
    async run(ctx, params) {
      if (!ctx.store.walletSets.has(params.walletSetId as string)) throw circleErrors.walletSetNotFound();
      const blockchains = params.blockchains as string[];
      for (const blockchain of blockchains) checkBlockchain(ctx, blockchain);
      const count = Number(params.count ?? 1);
      const metadata = (params.metadata as { name?: unknown; refId?: unknown }[] | undefined) ?? [];
      if (metadata.length > 0 && metadata.length !== count)
        throw circleErrors.parameter('metadata', 'metadata must have one entry per wallet');
      for (const entry of metadata) {
        const unknown = Object.keys(entry).filter((key) => key !== 'name' && key !== 'refId');
        if (unknown.length > 0)
          throw circleErrors.parameter(`metadata.${unknown[0]}`, `metadata.${unknown[0]} is not a parameter of this endpoint`);
      }
      const wallets: Record<string, unknown>[] = [];
      for (let i = 0; i < count * blockchains.length; i += 1) {
        const account = privateKeyToAccount(generatePrivateKey());
        const at = ctx.now();
        const record: WalletRecord = {
          id: randomUUID(),
          state: 'LIVE',
          walletSetId: params.walletSetId as string,
          custodyType: 'DEVELOPER',
          address: account.address,
          blockchain: ctx.blockchain,
          accountType: (params.accountType as AccountType | undefined) ?? 'EOA',
          refId: String(metadata[i % count]?.refId ?? ''),
          name: String(metadata[i % count]?.name ?? ''),
          createDate: at,
          updateDate: at,
          account,
        };
        ctx.store.wallets.set(record.id, record);
        wallets.push(walletView(record));
      }
      return { wallets };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/w3s/wallets/${ID}$`),
    params: {},
    status: 200,
    async run(ctx, _params, id) {
      return { wallet: walletView(wallet(ctx, id)) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/w3s\/wallets$/,
    params: {
      walletSetId: optional(checks.uuid),
      refId: optional(checks.string),
      blockchain: optional(checks.string),
      pageSize: optional(checks.integer(1, 50)),
    },
    status: 200,
    async run(ctx, params) {
      const wallets = [...ctx.store.wallets.values()]
        .filter(
          (w) =>
            (params.walletSetId === undefined || w.walletSetId === params.walletSetId) &&
            (params.refId === undefined || w.refId === params.refId),
        )
        .filter((w) => params.blockchain === undefined || w.blockchain === params.blockchain)
        .reverse()
        .slice(0, Number(params.pageSize ?? 10));
      return { wallets: wallets.map(walletView) };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/w3s/wallets/${ID}/balances$`),
    params: { includeAll: optional(checks.boolean), tokenAddress: optional(checks.address), pageSize: optional(checks.integer(1, 50)) },
    status: 200,
    async run(ctx, params, id) {
      const owner = wallet(ctx, id);
      const tokenBalances: Record<string, unknown>[] = [];
      for (const token of ctx.store.tokens.values()) {
        // The gas the stand-in grants an SCA wallet is its own, not the wallet's: it is not shown.
        if (token.isNative && owner.accountType === 'SCA') continue;
        if (params.tokenAddress !== undefined && token.tokenAddress?.toLowerCase() !== String(params.tokenAddress).toLowerCase()) continue;
        const amount = await ctx.balanceOf(owner, token);
        if (amount === 0n && params.includeAll !== 'true') continue;
        tokenBalances.push({ token, amount: decimal(amount, token.decimals), updateDate: ctx.now() });
      }
      return { tokenBalances };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/w3s/tokens/${ID}$`),
    params: {},
    status: 200,
    async run(ctx, _params, id) {
      const token = ctx.store.tokens.get(id!);
      if (token === undefined) throw circleErrors.tokenNotFound();
      return { token };
    },
  },
];

function decimal(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? (amount / scale).toString() : `${amount / scale}.${fraction}`;
}

const transactionRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/w3s\/developer\/transactions\/transfer$/,
    params: {
      ...POST_COMMON,
      walletId: required(checks.uuid),
      tokenAddress: optional(checks.tokenAddress),
      tokenId: optional(checks.uuid),
      blockchain: optional(checks.string),
      destinationAddress: required(checks.address),
      amounts: required(checks.decimalAmounts),
      feeLevel: optional(checks.oneOf('LOW', 'MEDIUM', 'HIGH')),
      refId: optional(checks.string),
    },
    status: 201,
    async run(ctx, params) {
      const from = wallet(ctx, params.walletId);
      let token: TokenRecord;
      if (params.tokenId !== undefined) {
        if (params.tokenAddress !== undefined) throw circleErrors.parameter('tokenId', 'tokenId excludes tokenAddress');
        token =
          ctx.store.tokens.get(params.tokenId as string) ??
          (() => {
            throw circleErrors.tokenNotFound();
          })();
      } else {
        if (params.tokenAddress === undefined) throw circleErrors.parameter('tokenId', 'tokenId or tokenAddress is required');
        if (params.blockchain === undefined) throw circleErrors.parameter('blockchain', 'blockchain is required with tokenAddress');
        checkBlockchain(ctx, params.blockchain);
        // An empty tokenAddress beside the blockchain is the chain's native token (POL), as at Circle.
        token = params.tokenAddress === '' ? nativeToken(ctx) : tokenByAddress(ctx, params.tokenAddress as string);
      }
      if (params.feeLevel === undefined) throw circleErrors.parameter('feeLevel', 'feeLevel is required');
      const amount = amountOf(ctx, params.amounts, token);
      const tx = newOutbound(ctx, from, {
        tokenId: token.id,
        destinationAddress: getAddress(params.destinationAddress as string),
        amounts: [...(params.amounts as string[])],
        amount,
        feeLevel: params.feeLevel as 'MEDIUM',
        refId: (params.refId as string | undefined) ?? '',
      });
      ctx.initiate(tx);
      return { id: tx.id, state: tx.state };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/w3s\/developer\/transactions\/contractExecution$/,
    params: {
      ...POST_COMMON,
      walletId: required(checks.uuid),
      contractAddress: required(checks.address),
      abiFunctionSignature: required(checks.string),
      abiParameters: required(checks.array),
      feeLevel: required(checks.oneOf('LOW', 'MEDIUM', 'HIGH')),
      refId: optional(checks.string),
    },
    status: 201,
    async run(ctx, params) {
      const from = wallet(ctx, params.walletId);
      const parameters = params.abiParameters as (string | boolean)[];
      let callData: `0x${string}`;
      try {
        callData = encodeContractCall(params.abiFunctionSignature as string, parameters);
      } catch (error) {
        throw circleErrors.parameter(
          'abiParameters',
          `abiFunctionSignature and abiParameters do not fit: ${(error as Error).message.split('\n')[0]}`,
        );
      }
      const tx = newOutbound(ctx, from, {
        operation: 'CONTRACT_EXECUTION',
        contractAddress: getAddress(params.contractAddress as string),
        abiFunctionSignature: params.abiFunctionSignature as string,
        abiParameters: parameters,
        callData,
        feeLevel: params.feeLevel as 'MEDIUM',
        refId: (params.refId as string | undefined) ?? '',
      });
      ctx.initiate(tx);
      return { id: tx.id, state: tx.state };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/w3s/transactions/${ID}$`),
    params: { txType: optional(checks.oneOf('INBOUND', 'OUTBOUND')) },
    status: 200,
    async run(ctx, params, id) {
      const tx = ctx.store.transactions.get(id!);
      if (tx === undefined || (params.txType !== undefined && tx.transactionType !== params.txType))
        throw circleErrors.transactionNotFound();
      return { transaction: transactionView(tx) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/w3s\/transactions$/,
    params: {
      // The SDK always sends custodyType=DEVELOPER.
      custodyType: optional(checks.oneOf('DEVELOPER')),
      txType: optional(checks.oneOf('INBOUND', 'OUTBOUND')),
      walletIds: optional(checks.uuidList),
      from: optional(checks.date),
      to: optional(checks.date),
      pageSize: optional(checks.integer(1, 50)),
      pageAfter: optional(checks.uuid),
    },
    status: 200,
    async run(ctx, params) {
      return { transactions: listTransactions(ctx.store, params).map(transactionView) };
    },
  },
];

const configRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/w3s\/config\/entity\/publicKey$/,
    params: {},
    status: 200,
    async run(ctx) {
      return { publicKey: ctx.entityPublicKeyPem };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v2/notifications/publicKey/${ID}$`),
    params: {},
    status: 200,
    async run(ctx, _params, id) {
      if (id !== ctx.notificationKey.id) throw circleErrors.notificationKeyNotFound();
      const key = ctx.notificationKey;
      return { id: key.id, algorithm: 'ECDSA_SHA_256', publicKey: key.publicKeyBase64, createDate: key.createDate };
    },
  },
];

export const ROUTES: readonly Route[] = [...configRoutes, ...walletSetRoutes, ...walletRoutes, ...transactionRoutes];
