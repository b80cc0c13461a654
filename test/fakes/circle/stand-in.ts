// The Circle stand-in: see README.md in this folder.
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { createViemSandboxChainAdapter } from '../../../src/adapters/chain/viem-chain-adapter.js';
import { createChainPublicClient } from '../../../src/adapters/chain/viem-public-client.js';
import { baseUnitsToDecimal } from '../../../src/adapters/circle/circle-amounts.js';
import { createEntitySecretCheck } from './entity-secret.js';
import { executeOutbound } from './executor.js';
import { ApiFaultPlan, type ApiFaultRule, type NotificationFault } from './faults.js';
import { createInboundScanner } from './inbound.js';
import { createNotificationCenter, type DeliveryAttempt, type Notification } from './notifications.js';
import { ROUTES, type RouteContext } from './routes.js';
import { startServer, type RequestLogEntry } from './server.js';
import {
  createStore,
  transactionView,
  walletView,
  type Blockchain,
  type Store,
  type TokenRecord,
  type TransactionRecord,
  type TransactionState,
  type WalletRecord,
} from './store.js';

export interface CircleStandInOptions {
  apiKey: string;
  /** 64 hex characters: the entity secret every ciphertext must decrypt to. */
  entitySecret: string;
  rpcUrl: string;
  chainId: number;
  tokens: { USDC: Address; EURC: Address };
  blockchain?: Blockchain;
  /** Where notifications go; none are sent while unset (they wait). */
  notificationUrl?: string;
  /** Clock in ms for createDate/updateDate and notification timestamps. */
  now?: () => number;
}

export interface CircleStandIn {
  readonly apiBase: string;
  /** The id of the P-256 key notifications are signed with (X-Circle-Key-Id). */
  readonly notificationKeyId: string;
  readonly tokenIds: { USDC: string; EURC: string; native: string };
  setNotificationUrl(url: string | null): void;
  readonly faults: {
    /** The next `count` calls matching the rule fail as it says. */
    failNext(rule: ApiFaultRule): void;
    /** The next `count` notifications made are dropped, duplicated or held back. */
    notifications(fault: NotificationFault, count?: number): void;
    /** Sends the held-back notifications (in order or reversed). */
    deliverLate(order?: 'created' | 'reverse'): void;
    pending(): ApiFaultRule[];
    clear(): void;
  };
  wallets(): Record<string, unknown>[];
  transactions(): Record<string, unknown>[];
  /** Executes every transaction waiting, scans the chain for inbound transfers, sends notifications. */
  sync(): Promise<void>;
  notificationsIdle(): Promise<void>;
  notifications(): Notification[];
  deliveries(): DeliveryAttempt[];
  /** A signature for any body with the notification key, for negative tests. */
  signNotification(body: string): string;
  requests(): RequestLogEntry[];
  close(): Promise<void>;
}

function tokenRecords(blockchain: Blockchain, tokens: { USDC: Address; EURC: Address }, at: string): TokenRecord[] {
  const erc20 = (symbol: string, name: string, tokenAddress: Address): TokenRecord => ({
    id: randomUUID(),
    blockchain,
    tokenAddress,
    standard: 'ERC20',
    name,
    symbol,
    decimals: 6,
    isNative: false,
    createDate: at,
    updateDate: at,
  });
  return [
    erc20('USDC', 'USD Coin', tokens.USDC),
    erc20('EURC', 'Euro Coin', tokens.EURC),
    {
      id: randomUUID(),
      blockchain,
      name: 'Polygon Ecosystem Token',
      symbol: 'POL',
      decimals: 18,
      isNative: true,
      createDate: at,
      updateDate: at,
    },
  ];
}

export async function startCircleStandIn(options: CircleStandInOptions): Promise<CircleStandIn> {
  const now = options.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const blockchain = options.blockchain ?? 'MATIC';
  const store = createStore();
  const [usdc, eurc, native] = tokenRecords(blockchain, options.tokens, iso());
  for (const token of [usdc!, eurc!, native!]) store.tokens.set(token.id, token);
  const chain = createViemSandboxChainAdapter({ rpcUrl: options.rpcUrl, chainId: options.chainId });
  const publicClient = createChainPublicClient({ rpcUrl: options.rpcUrl, chainId: options.chainId });
  const entitySecret = createEntitySecretCheck(options.entitySecret);
  const notifications = createNotificationCenter({ url: options.notificationUrl ?? null, now });
  const faults = new ApiFaultPlan();
  const log: RequestLogEntry[] = [];
  const scanner = createInboundScanner(chain, [options.tokens.USDC, options.tokens.EURC], (await chain.getBlockNumber()) + 1n);

  const notify = (tx: TransactionRecord) =>
    notifications.emit(tx.transactionType === 'INBOUND' ? 'transactions.inbound' : 'transactions.outbound', transactionView(tx));
  const setState = (tx: TransactionRecord, state: TransactionState, changes: Partial<TransactionRecord> = {}) => {
    Object.assign(tx, changes, { state, updateDate: iso() });
    if (state === 'CONFIRMED') tx.firstConfirmDate = tx.updateDate;
    notify(tx);
  };
  const context: RouteContext = {
    store,
    blockchain,
    now: iso,
    entityPublicKeyPem: entitySecret.publicKeyPem,
    notificationKey: { id: notifications.keyId, publicKeyBase64: notifications.publicKeyBase64, createDate: iso() },
    balanceOf: (wallet, token) =>
      token.isNative
        ? chain.getNativeBalance(wallet.address)
        : chain.getTokenBalance({ token: token.tokenAddress!, holder: wallet.address }),
    initiate(tx) {
      store.transactions.set(tx.id, tx);
      notify(tx);
    },
  };
  const { server, port } = await startServer({ apiKey: options.apiKey, routes: ROUTES, context, entitySecret, faults, log });
  const tokenAddress = (tokenId: string) => store.tokens.get(tokenId)!.tokenAddress ?? null;
  const executorParts = { rpcUrl: options.rpcUrl, chainId: options.chainId, chain, publicClient, tokenAddress, setState };

  async function syncOnce(): Promise<void> {
    const waiting = [...store.transactions.values()].filter((tx) => tx.transactionType === 'OUTBOUND' && tx.state === 'INITIATED');
    for (const tx of waiting.sort((a, b) => a.sequence - b.sequence))
      await executeOutbound(executorParts, tx, store.wallets.get(tx.walletId)!);
    await recordInbound(store, scanner, {
      blockchain,
      iso,
      setState,
      tokenIdOf: (address) => (address === options.tokens.USDC ? usdc!.id : eurc!.id),
    });
    notifications.flush();
  }
  let syncing: Promise<void> = Promise.resolve();

  return {
    apiBase: `http://127.0.0.1:${port}`,
    notificationKeyId: notifications.keyId,
    tokenIds: { USDC: usdc!.id, EURC: eurc!.id, native: native!.id },
    setNotificationUrl: (url) => notifications.setUrl(url),
    faults: {
      failNext: (rule) => faults.add(rule),
      notifications: (fault, count) => notifications.faults.add(fault, count),
      deliverLate: (order) => notifications.deliverLate(order),
      pending: () => faults.remaining(),
      clear() {
        faults.clear();
        notifications.faults.clear();
      },
    },
    wallets: () => [...store.wallets.values()].map(walletView),
    transactions: () => [...store.transactions.values()].sort((a, b) => a.sequence - b.sequence).map(transactionView),
    sync() {
      syncing = syncing.catch(() => undefined).then(syncOnce);
      return syncing;
    },
    notificationsIdle: () => notifications.idle(),
    notifications: () => notifications.sent(),
    deliveries: () => notifications.attempts(),
    signNotification: (body) => notifications.signBody(body),
    requests: () => [...log],
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface InboundParts {
  blockchain: Blockchain;
  iso(): string;
  setState(tx: TransactionRecord, state: TransactionState, changes?: Partial<TransactionRecord>): void;
  tokenIdOf(address: Address): string;
}

async function recordInbound(store: Store, scanner: ReturnType<typeof createInboundScanner>, parts: InboundParts): Promise<void> {
  const byAddress = new Map<Address, WalletRecord>([...store.wallets.values()].map((w) => [w.address, w]));
  for (const log of await scanner.scan([...byAddress.keys()])) {
    const wallet = byAddress.get(log.to)!;
    const at = parts.iso();
    const tx: TransactionRecord = {
      id: randomUUID(),
      transactionType: 'INBOUND',
      operation: 'TRANSFER',
      state: 'INITIATED',
      blockchain: parts.blockchain,
      custodyType: 'DEVELOPER',
      walletId: wallet.id,
      tokenId: parts.tokenIdOf(log.token),
      sourceAddress: log.from,
      destinationAddress: wallet.address,
      amounts: [baseUnitsToDecimal(log.value, 6)],
      amount: log.value,
      refId: '',
      txHash: log.txHash,
      createDate: at,
      updateDate: at,
      sequence: store.nextSequence++,
      log: { txHash: log.txHash, logIndex: log.logIndex },
    };
    store.transactions.set(tx.id, tx);
    parts.setState(tx, 'CONFIRMED', { blockHash: log.blockHash, blockHeight: Number(log.blockNumber) });
    parts.setState(tx, 'COMPLETE');
  }
}
