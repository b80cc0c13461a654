// The viem chain adapter against a real embedded anvil: Transfer logs in bounded block ranges,
// signing apart from broadcasting, receipts and confirmations, blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256, parseTransaction, toBytes, type Address, type Hash } from 'viem';
import type { TokenTransferLog } from '../../src/adapters/chain/chain-adapter.js';
import { createViemChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import { newAccount, removeDataDir, startChainFixture, type ChainFixture } from './chain-fixture.js';

let f: ChainFixture;
let usdc: Address;
let eurc: Address;

beforeAll(async () => {
  f = await startChainFixture();
  usdc = f.chain.tokens.USDC;
  eurc = f.chain.tokens.EURC;
});

afterAll(async () => {
  await f?.close();
  if (f) removeDataDir(f.dataDir);
});

describe('Transfer logs', () => {
  it('returns each transfer to the watched addresses exactly once, however the range is cut', async () => {
    const watched = [newAccount().address, newAccount().address, newAccount().address];
    const bystander = newAccount().address;
    const firstBlock = (await f.adapter.getBlockNumber()) + 1n;
    const expected: { token: Address; to: Address; value: bigint; txHash: Hash }[] = [];
    // Twelve mints in twelve blocks (anvil mines one block per transaction), to both tokens, with
    // transfers to an address nobody watches in between.
    for (let i = 0; i < 12; i += 1) {
      const token = i % 3 === 0 ? eurc : usdc;
      const to = watched[i % watched.length]!;
      const value = BigInt(1_000_000 + i);
      const txHash = await f.mintMined({ token, to, amount: value });
      expected.push({ token, to, value, txHash });
      await f.mintMined({ token: usdc, to: bystander, amount: 1n });
    }
    const lastBlock = await f.adapter.getBlockNumber();

    const whole = await f.adapter.getTransferLogs({ tokens: [usdc, eurc], recipients: watched, fromBlock: firstBlock, toBlock: lastBlock });
    expect(whole.map(({ token, to, value, txHash }) => ({ token, to, value, txHash }))).toEqual(expected);
    expect(whole.every((log) => log.from === '0x0000000000000000000000000000000000000000')).toBe(true);

    for (const step of [1n, 2n, 5n, 7n]) {
      const pieces: TokenTransferLog[] = [];
      for (let from = firstBlock; from <= lastBlock; from += step) {
        const to = from + step - 1n < lastBlock ? from + step - 1n : lastBlock;
        pieces.push(...(await f.adapter.getTransferLogs({ tokens: [usdc, eurc], recipients: watched, fromBlock: from, toBlock: to })));
      }
      expect(pieces, `ranges of ${step} blocks`).toEqual(whole);
    }
  });

  it('orders logs by block and position, and names each by (txHash, logIndex)', async () => {
    const watched = [newAccount().address];
    const from = (await f.adapter.getBlockNumber()) + 1n;
    for (let i = 0; i < 3; i += 1) await f.mintMined({ token: usdc, to: watched[0]!, amount: 1n });
    const logs = await f.adapter.getTransferLogs({
      tokens: [usdc],
      recipients: watched,
      fromBlock: from,
      toBlock: await f.adapter.getBlockNumber(),
    });
    expect(logs).toHaveLength(3);
    const keys = logs.map((log) => `${log.blockNumber}:${log.logIndex}`);
    expect(new Set(logs.map((log) => `${log.txHash}:${log.logIndex}`)).size).toBe(3);
    expect([...keys].sort()).toEqual(keys);
    for (const log of logs) {
      const block = await f.adapter.getBlock(log.blockNumber);
      expect(block?.hash).toBe(log.blockHash);
    }
  });

  it('filters by token and by recipient', async () => {
    const alice = newAccount().address;
    const bob = newAccount().address;
    const from = (await f.adapter.getBlockNumber()) + 1n;
    await f.mintMined({ token: usdc, to: alice, amount: 7n });
    await f.mintMined({ token: eurc, to: alice, amount: 8n });
    await f.mintMined({ token: usdc, to: bob, amount: 9n });
    const to = await f.adapter.getBlockNumber();
    const values = async (tokens: Address[], recipients: Address[]) =>
      (await f.adapter.getTransferLogs({ tokens, recipients, fromBlock: from, toBlock: to })).map((log) => log.value);
    expect(await values([usdc], [alice])).toEqual([7n]);
    expect(await values([eurc], [alice, bob])).toEqual([8n]);
    expect(await values([usdc, eurc], [bob])).toEqual([9n]);
    expect(await values([usdc], [])).toEqual([]);
  });

  it('filters by sender instead: what some addresses sent, to anyone', async () => {
    const cold = await f.fundedAccount({ token: usdc, amount: 100n });
    const other = await f.fundedAccount({ token: usdc, amount: 100n });
    const to = newAccount().address;
    const from = (await f.adapter.getBlockNumber()) + 1n;
    await f.mined(await f.adapter.sendTokenTransfer({ token: usdc, sender: cold, to, amount: 11n, nonce: 0 }));
    await f.mined(await f.adapter.sendTokenTransfer({ token: usdc, sender: other, to, amount: 12n, nonce: 0 }));
    await f.mintMined({ token: usdc, to: cold.address, amount: 13n });
    const last = await f.adapter.getBlockNumber();
    const logs = await f.adapter.getTransferLogs({ tokens: [usdc, eurc], senders: [cold.address], fromBlock: from, toBlock: last });
    expect(logs.map((log) => ({ from: log.from, to: log.to, value: log.value }))).toEqual([{ from: cold.address, to, value: 11n }]);
    const both = await f.adapter.getTransferLogs({
      tokens: [usdc],
      senders: [cold.address, other.address],
      fromBlock: from,
      toBlock: last,
    });
    expect(both.map((log) => log.value)).toEqual([11n, 12n]);
    const narrow = createViemChainAdapter({ rpcUrl: f.chain.rpcUrl, chainId: 137, maxLogRecipients: 1 });
    await expect(
      narrow.getTransferLogs({ tokens: [usdc], senders: [cold.address, other.address], fromBlock: from, toBlock: last }),
    ).rejects.toThrow(/2 senders in one query; at most 1/);
  });

  it('refuses unbounded or reversed ranges and too many recipients', async () => {
    const narrow = createViemChainAdapter({ rpcUrl: f.chain.rpcUrl, chainId: 137, maxLogBlockRange: 10n, maxLogRecipients: 2 });
    const recipients = [newAccount().address];
    await expect(narrow.getTransferLogs({ tokens: [usdc], recipients, fromBlock: 0n, toBlock: 9n })).resolves.toEqual([]);
    await expect(narrow.getTransferLogs({ tokens: [usdc], recipients, fromBlock: 0n, toBlock: 10n })).rejects.toThrow(RangeError);
    await expect(narrow.getTransferLogs({ tokens: [usdc], recipients, fromBlock: 5n, toBlock: 4n })).rejects.toThrow(RangeError);
    const three = [newAccount().address, newAccount().address, newAccount().address];
    await expect(narrow.getTransferLogs({ tokens: [usdc], recipients: three, fromBlock: 0n, toBlock: 1n })).rejects.toThrow(RangeError);
  });
});

describe('signing and broadcasting', () => {
  it('knows the hash before sending, and sending the same signed transaction twice moves funds once', async () => {
    const sender = await f.fundedAccount({ token: usdc, amount: 5_000_000n });
    const recipient = newAccount().address;
    const nonce = await f.adapter.getNonce({ address: sender.address, blockTag: 'pending' });
    const signed = await f.adapter.signTokenTransfer({ token: usdc, sender, to: recipient, amount: 2_000_000n, nonce });
    expect(signed.hash).toBe(keccak256(signed.serialized));
    expect(signed).toMatchObject({ from: sender.address, nonce });
    // Signing sends nothing.
    expect(await f.adapter.getNonce({ address: sender.address, blockTag: 'pending' })).toBe(nonce);
    expect(await f.adapter.getTransactionOutcome(signed.hash)).toBeNull();

    expect(await f.adapter.broadcast(signed)).toBe(signed.hash);
    expect(await f.mined(signed.hash)).toBe('success');
    expect(await f.adapter.broadcast(signed)).toBe(signed.hash);
    expect(await f.adapter.getTokenBalance({ token: usdc, holder: recipient })).toBe(2_000_000n);
    expect(await f.adapter.getNonce({ address: sender.address, blockTag: 'latest' })).toBe(nonce + 1);
  });

  it('does not let a different transaction through on a used nonce', async () => {
    const sender = await f.fundedAccount({ token: usdc, amount: 5_000_000n });
    const first = await f.adapter.sendTokenTransfer({ token: usdc, sender, to: newAccount().address, amount: 1n, nonce: 0 });
    expect(await f.mined(first)).toBe('success');
    const stale = await f.adapter.signTokenTransfer({ token: usdc, sender, to: newAccount().address, amount: 2n, nonce: 0 });
    await expect(f.adapter.broadcast(stale)).rejects.toThrow(/nonce/i);
  });

  it('reports receipts with their confirmations, which grow with new blocks', async () => {
    const sender = await f.fundedAccount({ token: usdc, amount: 1_000_000n });
    const hash = await f.adapter.sendTokenTransfer({ token: usdc, sender, to: newAccount().address, amount: 1n, nonce: 0 });
    await f.mined(hash);
    const outcome = await f.adapter.getTransactionOutcome(hash);
    expect(outcome).toMatchObject({ status: 'success', confirmations: 1n });
    await f.mintMined({ token: usdc, to: sender.address, amount: 1n });
    await f.mintMined({ token: usdc, to: sender.address, amount: 1n });
    expect((await f.adapter.getTransactionOutcome(hash))?.confirmations).toBe(3n);
    expect((await f.adapter.getBlock(outcome!.blockNumber))?.hash).toBe(outcome!.blockHash);
    expect(await f.adapter.getTransactionOutcome(keccak256(toBytes('no such transaction')))).toBeNull();
  });

  it('prices from the node within the fee cap; a replacement keeps nonce, call and gas, bumps both fees, and stops at the cap', async () => {
    const sender = await f.fundedAccount({ token: usdc, amount: 5_000_000n });
    const estimate = await f.adapter.signTokenTransfer({ token: usdc, sender, to: newAccount().address, amount: 1n, nonce: 0 });
    const uncapped = parseTransaction(estimate.serialized);
    const cap = uncapped.maxFeePerGas! / 2n;
    const capped = createViemChainAdapter({ rpcUrl: f.chain.rpcUrl, chainId: f.chain.chainId, maxFeePerGasWei: cap });
    const signed = await capped.signTokenTransfer({ token: usdc, sender, to: newAccount().address, amount: 1n, nonce: 0 });
    const first = parseTransaction(signed.serialized);
    expect(first.maxFeePerGas).toBe(cap);
    expect(first.maxPriorityFeePerGas! <= cap).toBe(true);

    const roomy = createViemChainAdapter({ rpcUrl: f.chain.rpcUrl, chainId: f.chain.chainId, maxFeePerGasWei: cap * 10n });
    const replacement = await roomy.signReplacement({ sender, serialized: signed.serialized, bumpPercent: 25n });
    const second = parseTransaction(replacement!.serialized);
    expect({ nonce: second.nonce, to: second.to, data: second.data, gas: second.gas }).toEqual({
      nonce: first.nonce,
      to: first.to,
      data: first.data,
      gas: first.gas,
    });
    expect(second.maxFeePerGas! >= (first.maxFeePerGas! * 125n) / 100n).toBe(true);
    expect(second.maxPriorityFeePerGas! >= (first.maxPriorityFeePerGas! * 125n) / 100n).toBe(true);
    expect(replacement!.hash).toBe(keccak256(replacement!.serialized));
    // At the cap already: no room for a replacement the node would take.
    expect(await capped.signReplacement({ sender, serialized: signed.serialized, bumpPercent: 25n })).toBeNull();
    // The replacement is a valid transaction: the node takes it and it moves the funds.
    expect(await f.adapter.broadcast(replacement!)).toBe(replacement!.hash);
    expect(await f.mined(replacement!.hash)).toBe('success');
  });

  it('grants gas and reads the chain id and blocks', async () => {
    const account = newAccount().address;
    await f.adapter.setNativeBalance({ address: account, wei: 123n });
    expect(await f.adapter.getNativeBalance(account)).toBe(123n);
    expect(await f.adapter.getChainId()).toBe(137);
    const head = await f.adapter.getBlockNumber();
    const block = await f.adapter.getBlock(head);
    expect(block?.number).toBe(head);
    expect((await f.adapter.getBlock(head - 1n))?.hash).toBe(block?.parentHash);
    expect(await f.adapter.getBlock(head + 1000n)).toBeNull();
  });
});
