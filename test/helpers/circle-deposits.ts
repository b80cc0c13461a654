// Deposits with WALLET_PROVIDER=circle, driven from tests, two ways:
// - createTestCircle: a small Circle of this file (its inbound transaction list, and notifications
//   signed with a P-256 key) for a self-mode server's deposit side, with inbound transactions made
//   from real transfers on the embedded chain (inboundOf), so that a test decides every state,
//   date and page;
// - startCircleDepositWorld: a server in full circle mode against the Circle stand-in of
//   test/fakes/circle (test/helpers/circle-custody.ts), registration making Circle wallets.
//
// How to drive deposits in an end-to-end or chaos test against the stand-in: send tokens on the
// chain to a user's deposit address (the faucet, POST /test-helpers/stablecoin/faucet, a mint, or
// any key); `circle.sync()` makes the stand-in see the transfer, list it at
// GET /v1/w3s/transactions?txType=INBOUND as an INBOUND transaction of the user's Circle wallet and
// POST a signed transactions.inbound notification to /webhooks/circle for CONFIRMED and for
// COMPLETE (COMPLETE credits); `circle.notificationsIdle()` waits for the answers. To prove the
// poll: `circle.faults.notifications('drop', 2)` (or 'late', 2) before the sync, then a job round
// (the runner runs `circle-deposit-poll` every CHAIN_POLL_INTERVAL_MS; in process,
// deps.circle.circleDepositPoll.poll() is one round, `passEnded` once it read to the end of the
// list): it credits it. Duplicated ('duplicate') or reordered ('late', then deliverLate('reverse'))
// notifications answer 200 and credit nothing more. chain_deposits.circle_transaction_id names the
// Circle transaction of each deposit row.
import { generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { getAddress, type Hash } from 'viem';
import type {
  CircleApi,
  CircleNotificationVerifier,
  CircleTransaction,
  CircleTransactionState,
} from '../../src/adapters/circle/circle-port.js';
import type { Token } from '../../src/money/assets.js';
import type { CircleStandIn } from '../fakes/circle/index.js';
import { startCircleServer } from './circle-custody.js';
import { accountIdByHandle } from './stablecoin-chain.js';
import { registerUser, type TestServer, type TestResponse, type TestUser } from './test-server.js';

export interface TestCircle {
  api: Pick<CircleApi, 'listTransactions'>;
  verifier: CircleNotificationVerifier;
  keyId: string;
  /** Lists the transaction at Circle as it is now (a new one, or a later state of one listed). */
  put(transaction: CircleTransaction): void;
  /** listTransactions calls so far. */
  calls: number;
  /** The largest page this Circle answers, whatever pageSize asks (Circle's pageSize is an upper bound). */
  maxPage: number;
}

export function createTestCircle(): TestCircle {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keys = new Map<string, KeyObject>([[KEY_ID, publicKey]]);
  signingKey = privateKey;
  const listed: CircleTransaction[] = [];
  const circle: TestCircle = {
    keyId: KEY_ID,
    calls: 0,
    maxPage: 3,
    put(transaction) {
      const at = listed.findIndex((t) => t.id === transaction.id);
      if (at === -1) listed.push(transaction);
      else listed[at] = transaction;
      listed.sort((a, b) => a.createDate.getTime() - b.createDate.getTime() || a.id.localeCompare(b.id));
    },
    api: {
      async listTransactions(query) {
        circle.calls++;
        const matching = listed.filter(
          (t) =>
            (query.txType === undefined || t.transactionType === query.txType) && (query.from === undefined || t.createDate >= query.from),
        );
        const start = query.pageAfter === undefined ? 0 : matching.findIndex((t) => t.id === query.pageAfter) + 1;
        const size = Math.min(query.pageSize ?? 10, circle.maxPage);
        const transactions = matching.slice(start, start + size).map((t) => ({ ...t }));
        const more = start + size < matching.length;
        return { transactions, pageAfter: more ? transactions[transactions.length - 1]!.id : null };
      },
    },
    verifier: {
      async verify({ rawBody, keyId, signature }) {
        const key = keyId === undefined ? undefined : keys.get(keyId);
        if (key === undefined || signature === undefined) return null;
        if (!verify('sha256', rawBody, key, Buffer.from(signature, 'base64'))) return null;
        try {
          const body = JSON.parse(rawBody.toString('utf8')) as { notificationId: string; notificationType: string; notification?: WireTx };
          if (typeof body.notificationId !== 'string' || typeof body.notificationType !== 'string') return null;
          const transaction = body.notification ? fromWire(body.notification) : null;
          return { notificationId: body.notificationId, notificationType: body.notificationType, transaction };
        } catch {
          return null;
        }
      },
    },
  };
  return circle;
}

const KEY_ID = '6a1c4d5e-0000-4000-8000-00000000c1c1';
let signingKey: KeyObject;

type WireTx = Omit<CircleTransaction, 'amount' | 'blockHeight' | 'createDate' | 'updateDate'> & {
  amount: string;
  blockHeight: string | null;
  createDate: string;
  updateDate: string;
};

function toWire(t: CircleTransaction): WireTx {
  return {
    ...t,
    amount: t.amount.toString(),
    blockHeight: t.blockHeight === null ? null : t.blockHeight.toString(),
    createDate: t.createDate.toISOString(),
    updateDate: t.updateDate.toISOString(),
  };
}

function fromWire(w: WireTx): CircleTransaction {
  return {
    ...w,
    amount: BigInt(w.amount),
    blockHeight: w.blockHeight === null ? null : BigInt(w.blockHeight),
    createDate: new Date(w.createDate),
    updateDate: new Date(w.updateDate),
  };
}

/** A signed notification's body, and its headers. */
export function signedNotification(
  transaction: CircleTransaction | null,
  type = 'transactions.inbound',
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    subscriptionId: 'b3f1c2d4-0000-4000-8000-000000000001',
    notificationId: randomUUID(),
    notificationType: type,
    ...(transaction ? { notification: toWire(transaction) } : {}),
    timestamp: new Date().toISOString(),
    version: 2,
  });
  const signature = sign('sha256', Buffer.from(body), signingKey).toString('base64');
  return { body, headers: { 'content-type': 'application/json', 'x-circle-key-id': KEY_ID, 'x-circle-signature': signature } };
}

/** POST /webhooks/circle with a signed notification of the transaction. */
export async function notify(server: TestServer, transaction: CircleTransaction | null, type?: string): Promise<TestResponse> {
  const { body, headers } = signedNotification(transaction, type);
  return server.request('POST', '/webhooks/circle', { rawBody: body, headers });
}

/**
 * The INBOUND Circle transaction of a transfer mined on the embedded chain to a user's deposit
 * address `to` (its Circle wallet in circle mode), in the given state.
 */
export async function inboundOf(
  server: TestServer,
  input: { txHash: Hash; to: string; walletId: string; token: Token; state?: CircleTransactionState; createDate?: Date },
): Promise<CircleTransaction> {
  const receipt = await server.deps.chain.chain.getTransactionOutcome(input.txHash);
  if (!receipt) throw new Error(`no receipt for ${input.txHash}`);
  const tokenAddress = getAddress(server.deps.chain.tokens[input.token]);
  const logs = await server.deps.chain.chain.getTransferLogs({
    tokens: [tokenAddress],
    recipients: [getAddress(input.to)],
    fromBlock: receipt.blockNumber,
    toBlock: receipt.blockNumber,
  });
  const log = logs.find((l) => l.txHash.toLowerCase() === input.txHash.toLowerCase());
  if (!log) throw new Error(`no Transfer log to ${input.to} in ${input.txHash}`);
  const at = input.createDate ?? new Date();
  return {
    id: randomUUID(),
    transactionType: 'INBOUND',
    state: input.state ?? 'COMPLETE',
    walletId: input.walletId,
    tokenAddress,
    sourceAddress: getAddress(log.from),
    destinationAddress: getAddress(log.to),
    amount: log.value,
    txHash: log.txHash,
    blockHeight: log.blockNumber,
    refId: null,
    createDate: at,
    updateDate: at,
  };
}

export interface CircleDepositWorld {
  server: TestServer;
  standIn: CircleStandIn;
  /** A registered user: registration made its wallet at the stand-in (stablecoinWalletId and deposit address). */
  circleUser(): Promise<TestUser & { accountId: number; walletId: string }>;
  /** The stand-in executes, scans the chain and sends its notifications; resolves once they are answered. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A test server with WALLET_PROVIDER=circle against the Circle stand-in of test/fakes/circle
 * (test/helpers/circle-custody.ts): the official SDK over HTTP, notifications signed and POSTed to
 * the server's /webhooks/circle and verified with the key the stand-in serves.
 */
export async function startCircleDepositWorld(): Promise<CircleDepositWorld> {
  const cs = await startCircleServer();
  const { server, circle: standIn } = cs;
  return {
    server,
    standIn,
    async circleUser() {
      const user = await registerUser(server);
      const accountId = await accountIdByHandle(server, user);
      const row = await server.deps.db.selectFrom('accounts').select('wallet_id').where('id', '=', accountId).executeTakeFirstOrThrow();
      return { ...user, accountId, walletId: row.wallet_id! };
    },
    async sync() {
      await standIn.sync();
      await standIn.notificationsIdle();
    },
    close: () => cs.close(),
  };
}
