// peerpay's CircleApi over the official @circle-fin/developer-controlled-wallets SDK (DESIGN §19).
// The SDK reads GET /v1/w3s/config/entity/publicKey once and encrypts the entity secret afresh for
// every call that needs it; this file makes only the calls §19 lists, converts Circle's decimal
// amounts exactly, and routes every call through withRetries (same idempotency key on a retry).
// The API key and the entity secret stay inside the SDK client: no message here names them.
import {
  initiateDeveloperControlledWalletsClient,
  type Blockchain,
  type CircleDeveloperControlledWalletsClient,
} from '@circle-fin/developer-controlled-wallets';
import { getAddress, type Address } from 'viem';
import { baseUnitsToDecimal } from './circle-amounts.js';
import { CircleApiError, type CircleApi, type CircleTransaction } from './circle-port.js';
import { defaultBackoff, withRetries, type RetryPolicy } from './circle-retry.js';
import { createTokenDirectory, type TokenDirectory } from './circle-token-directory.js';
import { NO_TOKEN, readBalance, readTransaction, readWallet, type WireTransaction } from './circle-wire.js';

export type CircleBlockchain = 'MATIC' | 'MATIC-AMOY';
export type CircleAccountType = 'SCA' | 'EOA';

export interface CircleApiOptions {
  apiKey: string;
  /** 32 bytes, hex: what Circle registered for this entity. */
  entitySecret: string;
  /** https://api.circle.com, or a stand-in. */
  apiBase: string;
  blockchain: CircleBlockchain;
  accountType: CircleAccountType;
  /** The stablecoins peerpay moves; both have 6 decimals. */
  tokens: { USDC: Address; EURC: Address };
  /** One attempt's wait for an answer; 15 s when absent. */
  timeoutMs?: number;
  /** Retries after the first attempt for 429, 5xx and network failures; 4 when absent. */
  maxRetries?: number;
  /** Test seam for the backoff between retries. */
  sleep?: (ms: number) => Promise<void>;
}

/** USDC and EURC both have 6 decimals on Polygon. */
const STABLECOIN_DECIMALS = 6;
/** POL, the native token on MATIC and MATIC-AMOY. */
const NATIVE_DECIMALS = 18;
const FEE = { type: 'level', config: { feeLevel: 'MEDIUM' } } as const;

export function createCircleSdk(options: Pick<CircleApiOptions, 'apiKey' | 'entitySecret' | 'apiBase'>) {
  return initiateDeveloperControlledWalletsClient({
    apiKey: options.apiKey,
    entitySecret: options.entitySecret,
    baseUrl: options.apiBase.replace(/\/+$/, ''),
  });
}

export function retryPolicy(options: Pick<CircleApiOptions, 'timeoutMs' | 'maxRetries' | 'sleep'>): RetryPolicy {
  return {
    maxRetries: options.maxRetries ?? 4,
    timeoutMs: options.timeoutMs ?? 15_000,
    backoffMs: defaultBackoff,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new CircleApiError(`${what}: Circle's answer had no data`, null, null, false);
  return value;
}

export function createCircleApi(options: CircleApiOptions): CircleApi {
  const sdk = createCircleSdk(options);
  const policy = retryPolicy(options);
  const call = <T>(what: string, attempt: () => Promise<T>) => withRetries(what, policy, attempt);
  const stablecoins = new Set<Address>([getAddress(options.tokens.USDC), getAddress(options.tokens.EURC)]);
  const tokens = createTokenDirectory(async (id) => {
    const answer = await call(`GET token ${id}`, () => sdk.getToken({ id }));
    return required(answer.data?.token, `GET token ${id}`);
  });
  const transaction = readTransactionWith(tokens);

  return {
    async createWalletSet({ name, idempotencyKey }) {
      const answer = await call('create wallet set', () => sdk.createWalletSet({ name, idempotencyKey }));
      return { id: required(answer.data?.walletSet, 'create wallet set').id };
    },
    async createWallet({ walletSetId, refId, idempotencyKey }) {
      const what = `create wallet ${refId}`;
      const answer = await call(what, () =>
        sdk.createWallets({
          walletSetId,
          blockchains: [options.blockchain as Blockchain],
          count: 1,
          accountType: options.accountType,
          metadata: [{ refId }],
          idempotencyKey,
        }),
      );
      return readWallet(required(answer.data?.wallets[0], what));
    },
    async getWallet(id) {
      const answer = await call(`GET wallet ${id}`, () => sdk.getWallet({ id }));
      return readWallet(required(answer.data?.wallet, `GET wallet ${id}`));
    },
    async getBalances(walletId) {
      const answer = await call(`GET balances ${walletId}`, () => sdk.getWalletTokenBalance({ id: walletId }));
      return required(answer.data?.tokenBalances, `GET balances ${walletId}`).map(readBalance);
    },
    createTransfer: (request) => createTransfer(sdk, call, options.blockchain, stablecoins, request),
    createContractExecution: (request) => createContractExecution(sdk, call, request),
    async getTransaction(id) {
      const answer = await call(`GET transaction ${id}`, () => sdk.getTransaction({ id }));
      return transaction(required(answer.data?.transaction, `GET transaction ${id}`));
    },
    listTransactions: (query) => listTransactions(sdk, call, transaction, query),
  };
}

type Sdk = CircleDeveloperControlledWalletsClient;
type Call = <T>(what: string, attempt: () => Promise<T>) => Promise<T>;

function readTransactionWith(tokens: TokenDirectory) {
  return async (wire: WireTransaction): Promise<CircleTransaction> =>
    readTransaction(wire, wire.tokenId ? await tokens.info(wire.tokenId) : NO_TOKEN);
}

async function createTransfer(
  sdk: Sdk,
  call: Call,
  blockchain: CircleBlockchain,
  stablecoins: ReadonlySet<Address>,
  request: Parameters<CircleApi['createTransfer']>[0],
) {
  // The native token is Circle's empty tokenAddress beside the blockchain (18 decimals); otherwise
  // only tokens whose decimals peerpay knows: an amount is never sent in the wrong scale.
  const tokenAddress = request.tokenAddress === null ? '' : getAddress(request.tokenAddress);
  if (tokenAddress !== '' && !stablecoins.has(tokenAddress))
    throw new CircleApiError(`transfer ${request.refId}: ${tokenAddress} is not a configured token`, null, null, false);
  if (request.amount <= 0n) throw new CircleApiError(`transfer ${request.refId}: amount must be positive`, null, null, false);
  const what = `transfer ${request.refId}`;
  const input = {
    walletId: request.walletId,
    tokenAddress,
    // Circle needs the blockchain beside a token address (§19); the SDK's type forbids it with a
    // walletId while its code passes it through, so the input is cast to the type.
    blockchain,
    destinationAddress: getAddress(request.destinationAddress),
    amount: [baseUnitsToDecimal(request.amount, tokenAddress === '' ? NATIVE_DECIMALS : STABLECOIN_DECIMALS)],
    fee: FEE,
    refId: request.refId,
    idempotencyKey: request.idempotencyKey,
  } as unknown as Parameters<Sdk['createTransaction']>[0];
  const answer = await call(what, () => sdk.createTransaction(input));
  const created = required(answer.data, what);
  return { id: created.id, state: created.state };
}

async function createContractExecution(sdk: Sdk, call: Call, request: Parameters<CircleApi['createContractExecution']>[0]) {
  const what = `contract execution ${request.refId}`;
  const answer = await call(what, () =>
    sdk.createContractExecutionTransaction({
      walletId: request.walletId,
      contractAddress: getAddress(request.contractAddress),
      abiFunctionSignature: request.abiFunctionSignature,
      abiParameters: [...request.abiParameters],
      fee: FEE,
      refId: request.refId,
      idempotencyKey: request.idempotencyKey,
    }),
  );
  const created = required(answer.data, what);
  return { id: created.id, state: created.state };
}

async function listTransactions(
  sdk: Sdk,
  call: Call,
  transaction: (wire: WireTransaction) => Promise<CircleTransaction>,
  query: Parameters<CircleApi['listTransactions']>[0],
) {
  const answer = await call('list transactions', () =>
    sdk.listTransactions({
      ...(query.txType === undefined ? {} : { txType: query.txType }),
      ...(query.walletIds === undefined ? {} : { walletIds: [...query.walletIds] }),
      ...(query.from === undefined ? {} : { from: query.from.toISOString() }),
      ...(query.to === undefined ? {} : { to: query.to.toISOString() }),
      ...(query.pageSize === undefined ? {} : { pageSize: query.pageSize }),
      ...(query.pageAfter === undefined ? {} : { pageAfter: query.pageAfter }),
    }),
  );
  const wires = (answer.data?.transactions ?? []) as WireTransaction[];
  const transactions: CircleTransaction[] = [];
  for (const wire of wires) transactions.push(await transaction(wire));
  // Circle pages by id: a full page may have a next one, named by its last transaction.
  const pageSize = query.pageSize ?? 10;
  const last = wires[wires.length - 1];
  return { transactions, pageAfter: wires.length >= pageSize && last !== undefined ? last.id : null };
}
