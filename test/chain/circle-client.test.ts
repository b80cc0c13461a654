// peerpay's Circle client (over the official SDK) against the repository's Circle stand-in on a
// chain of its own: every call §19 lists, transfers executed for real on the chain, retries of
// 5xx/429/lost answers with the same idempotency key producing exactly one on-chain transfer, the
// notification verifier, and the stand-in's strictness (unknown parameters, bad auth, reused
// ciphertexts, idempotency conflicts).
import { randomUUID, publicEncrypt, constants } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCircleApi } from '../../src/adapters/circle/circle-client.js';
import { createCircleNotificationVerifier } from '../../src/adapters/circle/circle-notifications.js';
import { CircleApiError, type CircleApi } from '../../src/adapters/circle/circle-port.js';
import { startCircleStandIn, type CircleStandIn } from '../fakes/circle/index.js';
import { createViemSandboxChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import { startLiveChain, type LiveChain } from '../helpers/live-chain.js';

const API_KEY = 'TEST_API_KEY:circle-client-test:0123456789abcdef';
const ENTITY_SECRET = 'ab'.repeat(32);
const noSleep = async () => undefined;

let chain: LiveChain;
let circle: CircleStandIn;
let api: CircleApi;
let walletSetId: string;

function client(overrides: { maxRetries?: number; timeoutMs?: number; accountType?: 'SCA' | 'EOA' } = {}): CircleApi {
  return createCircleApi({
    apiKey: API_KEY,
    entitySecret: ENTITY_SECRET,
    apiBase: circle.apiBase,
    blockchain: 'MATIC',
    accountType: overrides.accountType ?? 'SCA',
    tokens: chain.tokens,
    maxRetries: overrides.maxRetries ?? 3,
    timeoutMs: overrides.timeoutMs ?? 5_000,
    sleep: noSleep,
  });
}

async function raw(path: string, init: { method?: string; body?: unknown; apiKey?: string | null } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.apiKey !== null) headers.authorization = `Bearer ${init.apiKey ?? API_KEY}`;
  const response = await fetch(`${circle.apiBase}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: await response.json() };
}

async function ciphertext(): Promise<string> {
  const { body } = await raw('/v1/w3s/config/entity/publicKey');
  return publicEncrypt(
    { key: body.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(ENTITY_SECRET, 'hex'),
  ).toString('base64');
}

function onChainTransfersFrom(from: Address): number {
  return circle.transactions().filter((tx: any) => tx.transactionType === 'OUTBOUND' && tx.sourceAddress === from && tx.txHash).length;
}

beforeAll(async () => {
  chain = await startLiveChain({ hotWallet: privateKeyToAccount(generatePrivateKey()).address });
  circle = await startCircleStandIn({
    apiKey: API_KEY,
    entitySecret: ENTITY_SECRET,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    tokens: chain.tokens,
  });
  api = client();
  walletSetId = (await api.createWalletSet({ name: 'peerpay', idempotencyKey: randomUUID() })).id;
});

afterAll(async () => {
  await circle?.close();
  await chain?.stop();
});

describe('the Circle client against the stand-in', () => {
  it('creates wallets (the same idempotency key gives the same wallet), reads them and their balances', async () => {
    const key = randomUUID();
    const wallet = await api.createWallet({ walletSetId, refId: 'account-1', idempotencyKey: key });
    expect(wallet.refId).toBe('account-1');
    expect(wallet.address).toBe(getAddress(wallet.address));
    expect(await api.createWallet({ walletSetId, refId: 'account-1', idempotencyKey: key })).toEqual(wallet);
    expect(await api.getWallet(wallet.id)).toEqual(wallet);
    expect(await api.getBalances(wallet.id)).toEqual([]);
    await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 12_345_678n });
    expect(await api.getBalances(wallet.id)).toEqual([{ tokenAddress: chain.tokens.USDC, amount: 12_345_678n }]);
    const other = await api.createWallet({ walletSetId, refId: 'account-2', idempotencyKey: randomUUID() });
    expect(other.id).not.toBe(wallet.id);
    expect(circle.wallets().map((w: any) => w.accountType)).toEqual(['SCA', 'SCA']);
  });

  it('transfers for real: INITIATED, then COMPLETE with a txHash after sync; the receiver sees an INBOUND transaction', async () => {
    const from = await api.createWallet({ walletSetId, refId: 'sender', idempotencyKey: randomUUID() });
    const to = await api.createWallet({ walletSetId, refId: 'receiver', idempotencyKey: randomUUID() });
    await chain.mint({ to: from.address, token: 'EURC', amountMinor: 5_000_000n });
    const started = new Date(Date.now() - 1000);
    const created = await api.createTransfer({
      walletId: from.id,
      tokenAddress: chain.tokens.EURC,
      destinationAddress: to.address,
      amount: 1_250_001n,
      refId: 'withdrawal:1',
      idempotencyKey: randomUUID(),
    });
    expect(created.state).toBe('INITIATED');
    expect((await api.getTransaction(created.id)).state).toBe('INITIATED');
    await circle.sync();
    const done = await api.getTransaction(created.id);
    expect(done).toMatchObject({
      state: 'COMPLETE',
      transactionType: 'OUTBOUND',
      walletId: from.id,
      tokenAddress: chain.tokens.EURC,
      sourceAddress: from.address,
      destinationAddress: to.address,
      amount: 1_250_001n,
      refId: 'withdrawal:1',
    });
    expect(done.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await api.getBalances(to.id)).toEqual([{ tokenAddress: chain.tokens.EURC, amount: 1_250_001n }]);
    const inbound = await api.listTransactions({ txType: 'INBOUND', walletIds: [to.id], from: started, pageSize: 10 });
    expect(inbound.transactions).toHaveLength(1);
    expect(inbound.transactions[0]).toMatchObject({
      state: 'COMPLETE',
      amount: 1_250_001n,
      sourceAddress: from.address,
      txHash: done.txHash,
      refId: null,
    });
    expect(inbound.pageAfter).toBeNull();
  });

  it('fails a transfer the wallet cannot cover, without sending anything', async () => {
    const poor = await api.createWallet({ walletSetId, refId: 'poor', idempotencyKey: randomUUID() });
    const created = await api.createTransfer({
      walletId: poor.id,
      tokenAddress: chain.tokens.USDC,
      destinationAddress: poor.address,
      amount: 1n,
      refId: 'sweep:poor',
      idempotencyKey: randomUUID(),
    });
    await circle.sync();
    const failed = await api.getTransaction(created.id);
    expect(failed.state).toBe('FAILED');
    expect(failed.txHash).toBeNull();
  });

  it('pages through transactions newest first', async () => {
    const wallet = await api.createWallet({ walletSetId, refId: 'pager', idempotencyKey: randomUUID() });
    for (let i = 1n; i <= 3n; i += 1n) await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: i });
    await circle.sync();
    const first = await api.listTransactions({ walletIds: [wallet.id], pageSize: 2 });
    expect(first.transactions.map((tx) => tx.amount)).toEqual([3n, 2n]);
    const second = await api.listTransactions({ walletIds: [wallet.id], pageSize: 2, pageAfter: first.pageAfter! });
    expect(second.transactions.map((tx) => tx.amount)).toEqual([1n]);
    expect(second.pageAfter).toBeNull();
  });

  it('executes a contract call from the wallet', async () => {
    const wallet = await api.createWallet({ walletSetId, refId: 'caller', idempotencyKey: randomUUID() });
    const receiver = privateKeyToAccount(generatePrivateKey()).address;
    await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 700n });
    const created = await api.createContractExecution({
      walletId: wallet.id,
      contractAddress: chain.tokens.USDC,
      abiFunctionSignature: 'transfer(address,uint256)',
      abiParameters: [receiver, '700'],
      refId: 'x402:1',
      idempotencyKey: randomUUID(),
    });
    await circle.sync();
    const done = await api.getTransaction(created.id);
    expect(done.state).toBe('COMPLETE');
    expect(done.txHash).not.toBeNull();
    expect(await api.getBalances(wallet.id)).toEqual([]);
  });

  it('refuses an amount with more decimals than the token has and a token it does not know, before calling Circle', async () => {
    const before = circle.requests().length;
    const request = { walletId: randomUUID(), destinationAddress: chain.tokens.USDC, amount: 1n, refId: 'x', idempotencyKey: randomUUID() };
    await expect(api.createTransfer({ ...request, tokenAddress: privateKeyToAccount(generatePrivateKey()).address })).rejects.toThrow(
      CircleApiError,
    );
    await expect(api.createTransfer({ ...request, tokenAddress: chain.tokens.USDC, amount: 0n })).rejects.toThrow(CircleApiError);
    expect(circle.requests().length).toBe(before);
  });
});

describe('retries', () => {
  async function fundedWallet(refId: string) {
    const wallet = await api.createWallet({ walletSetId, refId, idempotencyKey: randomUUID() });
    await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 10_000_000n });
    return wallet;
  }

  it('5xx, 429 and a lost answer are retried with the same idempotency key: exactly one transfer on chain', async () => {
    const wallet = await fundedWallet('retried');
    const path = '/v1/w3s/developer/transactions/transfer';
    circle.faults.failNext({ method: 'POST', path, fault: 503 });
    circle.faults.failNext({ method: 'POST', path, fault: 429 });
    circle.faults.failNext({ method: 'POST', path, fault: 'lost' });
    const key = randomUUID();
    const created = await api.createTransfer({
      walletId: wallet.id,
      tokenAddress: chain.tokens.USDC,
      destinationAddress: chain.tokens.EURC,
      amount: 1_000_000n,
      refId: 'withdrawal:retried',
      idempotencyKey: key,
    });
    expect(circle.faults.pending()).toEqual([]);
    const attempts = circle
      .requests()
      .filter((r) => r.idempotencyKey === key || (r.path === path && r.fault !== null && r.idempotencyKey === null));
    expect(attempts.map((r) => [r.fault, r.replayed])).toEqual([
      [503, false],
      [429, false],
      ['lost', false],
      [null, true],
    ]);
    await circle.sync();
    expect((await api.getTransaction(created.id)).state).toBe('COMPLETE');
    expect(onChainTransfersFrom(wallet.address)).toBe(1);
  });

  it('a transfer whose answer was lost past the retries is found again by its key, never sent twice', async () => {
    const wallet = await fundedWallet('lost');
    const path = '/v1/w3s/developer/transactions/transfer';
    circle.faults.failNext({ method: 'POST', path, fault: 'lost', count: 2 });
    const request = {
      walletId: wallet.id,
      tokenAddress: chain.tokens.USDC,
      destinationAddress: chain.tokens.EURC,
      amount: 2_000_000n,
      refId: 'withdrawal:lost',
      idempotencyKey: randomUUID(),
    };
    const error = await client({ maxRetries: 1 })
      .createTransfer(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CircleApiError);
    expect((error as CircleApiError).retryable).toBe(true);
    // Later (say after a restart) the same outbox entry asks again with the same key.
    const found = await api.createTransfer(request);
    await circle.sync();
    expect((await api.getTransaction(found.id)).amount).toBe(2_000_000n);
    expect(onChainTransfersFrom(wallet.address)).toBe(1);
    expect(circle.transactions().filter((tx: any) => tx.walletId === wallet.id && tx.transactionType === 'OUTBOUND')).toHaveLength(1);
  });

  it('an answer that never comes times out and is retried', async () => {
    circle.faults.failNext({ method: 'GET', path: /^\/v1\/w3s\/wallets\/[^/]+$/, fault: 'timeout' });
    const wallet = await api.createWallet({ walletSetId, refId: 'slow', idempotencyKey: randomUUID() });
    expect(await client({ timeoutMs: 300 }).getWallet(wallet.id)).toEqual(wallet);
  });

  it('a refusal (4xx) is not retried and names neither the API key nor the entity secret', async () => {
    const before = circle.requests().length;
    const error = (await api.getWallet(randomUUID()).catch((e: unknown) => e)) as CircleApiError;
    expect(error).toBeInstanceOf(CircleApiError);
    expect(error).toMatchObject({ status: 404, code: 156001, retryable: false });
    expect(circle.requests().length - before).toBe(1);
    const text = `${error.message} ${error.stack} ${JSON.stringify(error)}`;
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(ENTITY_SECRET);
    expect(error.cause).toBeUndefined();
  });

  it('5xx until the retries are spent is a retryable CircleApiError', async () => {
    circle.faults.failNext({ method: 'GET', path: /^\/v1\/w3s\/wallets\//, fault: 500, count: 2 });
    const error = (await client({ maxRetries: 1 })
      .getWallet(randomUUID())
      .catch((e: unknown) => e)) as CircleApiError;
    expect(error).toMatchObject({ status: 500, retryable: true });
  });
});

describe('notifications', () => {
  const verifier = () => createCircleNotificationVerifier({ apiBase: circle.apiBase, apiKey: API_KEY });

  it("accepts the stand-in's signed transactions.inbound notification, in base units", async () => {
    const wallet = await api.createWallet({ walletSetId, refId: 'notified', idempotencyKey: randomUUID() });
    await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 4_200_001n });
    await circle.sync();
    const complete = circle
      .notifications()
      .map((n) => JSON.parse(n.body))
      .find(
        (n) =>
          n.notificationType === 'transactions.inbound' && n.notification.walletId === wallet.id && n.notification.state === 'COMPLETE',
      );
    expect(complete).toBeDefined();
    const body = Buffer.from(circle.notifications().find((n) => n.notificationId === complete.notificationId)!.body);
    const verified = await verifier().verify({
      rawBody: body,
      keyId: circle.notificationKeyId,
      signature: circle.signNotification(body.toString()),
    });
    expect(verified).toMatchObject({
      notificationId: complete.notificationId,
      notificationType: 'transactions.inbound',
      transaction: {
        transactionType: 'INBOUND',
        state: 'COMPLETE',
        walletId: wallet.id,
        tokenAddress: chain.tokens.USDC,
        amount: 4_200_001n,
      },
    });
  });

  it('refuses a tampered body, an unknown key id, missing headers and a body that is no notification', async () => {
    const v = verifier();
    const body = JSON.stringify({ notificationId: randomUUID(), notificationType: 'transactions.inbound', notification: {} });
    const signature = circle.signNotification(body);
    const tampered = Buffer.from(body.replace('inbound', 'outbound'));
    expect(await v.verify({ rawBody: tampered, keyId: circle.notificationKeyId, signature })).toBeNull();
    expect(await v.verify({ rawBody: Buffer.from(body), keyId: randomUUID(), signature })).toBeNull();
    expect(await v.verify({ rawBody: Buffer.from(body), keyId: undefined, signature })).toBeNull();
    expect(await v.verify({ rawBody: Buffer.from(body), keyId: circle.notificationKeyId, signature: undefined })).toBeNull();
    expect(await v.verify({ rawBody: Buffer.from(body), keyId: 'not-a-key', signature })).toBeNull();
    // Signed properly, but the transaction in it lacks its fields.
    expect(await v.verify({ rawBody: Buffer.from(body), keyId: circle.notificationKeyId, signature })).toBeNull();
    const notJson = 'not json';
    expect(
      await v.verify({ rawBody: Buffer.from(notJson), keyId: circle.notificationKeyId, signature: circle.signNotification(notJson) }),
    ).toBeNull();
  });

  it('asks Circle for a key once per key id', async () => {
    const v = verifier();
    const body = JSON.stringify({ notificationId: randomUUID(), notificationType: 'webhooks.test', notification: {} });
    const before = circle.requests().filter((r) => r.path.startsWith('/v2/notifications/publicKey/')).length;
    for (let i = 0; i < 3; i += 1) {
      const verified = await v.verify({
        rawBody: Buffer.from(body),
        keyId: circle.notificationKeyId,
        signature: circle.signNotification(body),
      });
      expect(verified).toMatchObject({ notificationType: 'webhooks.test', transaction: null });
    }
    expect(circle.requests().filter((r) => r.path.startsWith('/v2/notifications/publicKey/')).length - before).toBe(1);
  });
});

describe('the stand-in is strict', () => {
  it('refuses a missing or wrong API key', async () => {
    expect((await raw('/v1/w3s/config/entity/publicKey', { apiKey: null })).status).toBe(401);
    expect((await raw('/v1/w3s/config/entity/publicKey', { apiKey: 'TEST_API_KEY:other' })).status).toBe(401);
  });

  it('refuses unknown paths, wrong methods and unknown parameters', async () => {
    expect(await raw('/v1/w3s/developer/transactions/cancel', { method: 'POST', body: {} })).toMatchObject({ status: 404 });
    expect(await raw('/v1/w3s/developer/walletSets')).toMatchObject({ status: 405 });
    const unknown = await raw(`/v1/w3s/transactions?txType=INBOUND&blockchain=MATIC`);
    expect(unknown).toMatchObject({ status: 400, body: { code: 2, errors: [{ location: 'blockchain' }] } });
    const body = { idempotencyKey: randomUUID(), entitySecretCiphertext: await ciphertext(), name: 'x', color: 'blue' };
    expect(await raw('/v1/w3s/developer/walletSets', { method: 'POST', body })).toMatchObject({
      status: 400,
      body: { code: 2, errors: [{ location: 'color' }] },
    });
  });

  it('refuses a reused ciphertext, a wrong entity secret and a key that is no UUID v4', async () => {
    const used = await ciphertext();
    expect(
      (await raw('/v1/w3s/developer/walletSets', { method: 'POST', body: { idempotencyKey: randomUUID(), entitySecretCiphertext: used } }))
        .status,
    ).toBe(201);
    const reused = await raw('/v1/w3s/developer/walletSets', {
      method: 'POST',
      body: { idempotencyKey: randomUUID(), entitySecretCiphertext: used },
    });
    expect(reused).toMatchObject({ status: 400, body: { code: 156004 } });
    const { body: key } = await raw('/v1/w3s/config/entity/publicKey');
    const wrong = publicEncrypt(
      { key: key.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.alloc(32, 1),
    ).toString('base64');
    expect(
      await raw('/v1/w3s/developer/walletSets', { method: 'POST', body: { idempotencyKey: randomUUID(), entitySecretCiphertext: wrong } }),
    ).toMatchObject({
      status: 400,
      body: { code: 156013 },
    });
    const notV4 = await raw('/v1/w3s/developer/walletSets', {
      method: 'POST',
      body: { idempotencyKey: 'abc', entitySecretCiphertext: await ciphertext() },
    });
    expect(notV4).toMatchObject({ status: 400, body: { errors: [{ location: 'idempotencyKey' }] } });
  });

  it('answers a repeated key with the first answer, and another body under the key with 409', async () => {
    const idempotencyKey = randomUUID();
    const first = await raw('/v1/w3s/developer/walletSets', {
      method: 'POST',
      body: { idempotencyKey, entitySecretCiphertext: await ciphertext(), name: 'a' },
    });
    const again = await raw('/v1/w3s/developer/walletSets', {
      method: 'POST',
      body: { idempotencyKey, entitySecretCiphertext: await ciphertext(), name: 'a' },
    });
    expect(again).toEqual(first);
    const other = await raw('/v1/w3s/developer/walletSets', {
      method: 'POST',
      body: { idempotencyKey, entitySecretCiphertext: await ciphertext(), name: 'b' },
    });
    expect(other).toMatchObject({ status: 409, body: { code: 156020 } });
  });
});

describe('notification delivery and its faults', () => {
  it('posts signed notifications to the URL; drops, duplicates and holds back (late, reversed) as told', async () => {
    const { createServer } = await import('node:http');
    const received: { keyId: string; signature: string; body: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          keyId: String(req.headers['x-circle-key-id']),
          signature: String(req.headers['x-circle-signature']),
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      circle.setNotificationUrl(`http://127.0.0.1:${port}/webhooks/circle`);
      const wallet = await api.createWallet({ walletSetId, refId: 'delivered', idempotencyKey: randomUUID() });
      const inbound = (body: string) => JSON.parse(body).notification;
      // Deposit 1: CONFIRMED dropped, COMPLETE duplicated. Deposit 2: both held back, then sent reversed.
      circle.faults.notifications('drop');
      circle.faults.notifications('duplicate');
      circle.faults.notifications('late', 2);
      await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 1n });
      await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 2n });
      await circle.sync();
      await circle.notificationsIdle();
      const mine = () => received.map((r) => inbound(r.body)).filter((tx) => tx.walletId === wallet.id);
      expect(mine().map((tx) => [tx.amounts[0], tx.state])).toEqual([
        ['0.000001', 'COMPLETE'],
        ['0.000001', 'COMPLETE'],
      ]);
      circle.faults.deliverLate('reverse');
      await circle.notificationsIdle();
      expect(
        mine()
          .map((tx) => [tx.amounts[0], tx.state])
          .slice(2),
      ).toEqual([
        ['0.000002', 'COMPLETE'],
        ['0.000002', 'CONFIRMED'],
      ]);
      const v = createCircleNotificationVerifier({ apiBase: circle.apiBase, apiKey: API_KEY });
      for (const r of received)
        expect(await v.verify({ rawBody: Buffer.from(r.body), keyId: r.keyId, signature: r.signature })).not.toBeNull();
    } finally {
      circle.setNotificationUrl(null);
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('an EOA wallet pays its own gas: without any, its transfer FAILS', async () => {
    const eoa = client({ accountType: 'EOA' });
    const wallet = await eoa.createWallet({ walletSetId, refId: 'eoa', idempotencyKey: randomUUID() });
    await chain.mint({ to: wallet.address, token: 'USDC', amountMinor: 5n });
    const created = await eoa.createTransfer({
      walletId: wallet.id,
      tokenAddress: chain.tokens.USDC,
      destinationAddress: chain.tokens.EURC,
      amount: 5n,
      refId: 'withdrawal:eoa',
      idempotencyKey: randomUUID(),
    });
    await circle.sync();
    expect(await eoa.getTransaction(created.id)).toMatchObject({ state: 'FAILED', txHash: null });
    expect(circle.wallets().find((w: any) => w.id === wallet.id)).toMatchObject({ accountType: 'EOA' });
  });

  it('sends the native token (empty tokenAddress beside the blockchain) for real, paid from the value the wallet holds', async () => {
    const eoa = client({ accountType: 'EOA' });
    const sandbox = createViemSandboxChainAdapter({ rpcUrl: chain.rpcUrl, chainId: chain.chainId });
    const [from, to] = [
      await eoa.createWallet({ walletSetId, refId: 'gas-from', idempotencyKey: randomUUID() }),
      await eoa.createWallet({ walletSetId, refId: 'gas-to', idempotencyKey: randomUUID() }),
    ];
    await sandbox.setNativeBalance({ address: from.address, wei: 10n ** 16n });
    const send = (amount: bigint) =>
      eoa.createTransfer({
        walletId: from.id,
        tokenAddress: null,
        destinationAddress: to.address,
        amount,
        refId: 'gas:x',
        idempotencyKey: randomUUID(),
      });
    const sent = await send(3n * 10n ** 15n);
    // More than it holds (with gas on top): Circle fails it without sending anything.
    const short = await send(10n ** 16n);
    await circle.sync();
    expect(await eoa.getTransaction(sent.id)).toMatchObject({ state: 'COMPLETE', amount: 3n * 10n ** 15n });
    expect(await eoa.getTransaction(short.id)).toMatchObject({ state: 'FAILED', txHash: null });
    expect(await sandbox.getNativeBalance(to.address)).toBe(3n * 10n ** 15n);
    // Strict as Circle: an empty tokenAddress names the native token only beside the blockchain.
    const body = {
      idempotencyKey: randomUUID(),
      entitySecretCiphertext: await ciphertext(),
      walletId: from.id,
      tokenAddress: '',
      destinationAddress: to.address,
      amounts: ['0.001'],
      feeLevel: 'MEDIUM',
    };
    expect(await raw('/v1/w3s/developer/transactions/transfer', { method: 'POST', body })).toMatchObject({ status: 400 });
  });
});
