// The sandbox tokens on a real embedded anvil, checked with viem: identity and EIP-712 domain,
// minting, ERC-20 transfers, EIP-3009 authorizations (relayed, replayed, out of their window,
// forged, cancelled) and EIP-2612 permits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestClient,
  getAddress,
  hashDomain,
  http,
  parseEventLogs,
  zeroAddress,
  type Address,
  type Hex,
  type LocalAccount,
} from 'viem';
import { ChainRevertError, type TransferAuthorization } from '../../src/adapters/chain/chain-adapter.js';
import { fullTokenAbi } from '../../src/adapters/chain/token-abi.js';
import { randomAuthorizationNonce, signTransferAuthorization } from '../../src/adapters/chain/transfer-authorization.js';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
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

// `as never`: the function name is a plain string here, so viem cannot infer the call's types; tsc needs
// the assertion even though the lint rule's heuristic calls it unnecessary.
const read = <T>(address: Address, functionName: string, args: readonly unknown[] = []) =>
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  f.publicClient.readContract({ address, abi: fullTokenAbi, functionName, args } as never) as Promise<T>;

const balanceOf = (token: Address, holder: Address) => f.adapter.getTokenBalance({ token, holder });

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

async function authorization(options: {
  from: LocalAccount;
  to: Address;
  value: bigint;
  validAfter?: bigint;
  validBefore?: bigint;
  token?: Address;
}): Promise<TransferAuthorization> {
  return signTransferAuthorization({
    signer: options.from,
    domain: await f.adapter.getTokenDomain(options.token ?? usdc),
    to: options.to,
    value: options.value,
    validAfter: options.validAfter ?? 0n,
    validBefore: options.validBefore ?? nowSeconds() + 3600n,
  });
}

async function relay(relayer: LocalAccount, signed: TransferAuthorization, token: Address = usdc) {
  const nonce = await f.adapter.getNonce({ address: relayer.address, blockTag: 'pending' });
  return f.adapter.relayTransferWithAuthorization({ token, relayer, authorization: signed, nonce });
}

async function expectRevert(promise: Promise<unknown>, reason: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChainRevertError);
  expect((error as ChainRevertError).reason).toBe(reason);
}

describe('sandbox token identity', () => {
  it('places USDC and EURC at their fixed addresses with name, symbol, 6 decimals and version 2', async () => {
    expect(usdc).toBe(getAddress('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'));
    for (const [token, name, symbol] of [
      [usdc, 'USD Coin', 'USDC'],
      [eurc, 'EURC', 'EURC'],
    ] as const) {
      expect(await read(token, 'name')).toBe(name);
      expect(await read(token, 'symbol')).toBe(symbol);
      expect(await read(token, 'decimals')).toBe(6);
      expect(await read(token, 'version')).toBe('2');
      expect(getAddress(await read<Address>(token, 'owner'))).toBe(f.owner.address);
    }
  });

  it('binds signatures to the EIP-712 domain (name, version 2, chain id 137, the token address)', async () => {
    for (const [token, name] of [
      [usdc, 'USD Coin'],
      [eurc, 'EURC'],
    ] as const) {
      const domain = { name, version: '2', chainId: 137, verifyingContract: token };
      expect(await f.adapter.getTokenDomain(token)).toEqual(domain);
      expect(await read(token, 'DOMAIN_SEPARATOR')).toBe(
        hashDomain({ domain: { ...domain, chainId: 137n }, types: { EIP712Domain: eip712DomainType } }),
      );
      const [fields, eipName, version, chainId, verifyingContract] = await read<readonly [Hex, string, string, bigint, Address]>(
        token,
        'eip712Domain',
      );
      expect([fields, eipName, version, chainId, getAddress(verifyingContract)]).toEqual(['0x0f', name, '2', 137n, token]);
    }
  });

  it('cannot be initialised a second time', async () => {
    const intruder = await f.fundedAccount();
    await expect(
      f.publicClient.simulateContract({
        address: usdc,
        abi: fullTokenAbi,
        functionName: 'initialize',
        args: ['Fake', 'FAKE', 18, intruder.address],
        account: intruder,
      }),
    ).rejects.toThrow(/AlreadyInitialized/);
  });
});

const eip712DomainType = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

describe('minting', () => {
  it('lets the owner mint, which raises balance and supply and logs a Transfer from the zero address', async () => {
    const holder = newAccount();
    const supplyBefore = await read<bigint>(eurc, 'totalSupply');
    const hash = await f.adapter.mint({ token: eurc, minter: f.owner, to: holder.address, amount: 12_345_678n });
    expect(await f.mined(hash)).toBe('success');
    expect(await balanceOf(eurc, holder.address)).toBe(12_345_678n);
    expect(await read<bigint>(eurc, 'totalSupply')).toBe(supplyBefore + 12_345_678n);
    const receipt = await f.publicClient.getTransactionReceipt({ hash });
    const [transfer] = parseEventLogs({ abi: fullTokenAbi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfer?.args).toEqual({ from: zeroAddress, to: holder.address, value: 12_345_678n });
  });

  it('refuses anyone else until the owner makes them a minter', async () => {
    const faucet = await f.fundedAccount();
    const holder = newAccount();
    await expectRevert(f.adapter.mint({ token: usdc, minter: faucet, to: holder.address, amount: 1n }), 'NotMinter');
    const grant = await f
      .walletFor(f.owner)
      .writeContract({ address: usdc, abi: fullTokenAbi, functionName: 'configureMinter', args: [faucet.address, true] });
    expect(await f.mined(grant)).toBe('success');
    expect(await f.mined(await f.adapter.mint({ token: usdc, minter: faucet, to: holder.address, amount: 5n }))).toBe('success');
    expect(await balanceOf(usdc, holder.address)).toBe(5n);
  });

  it('gives concurrent mints by one minter distinct nonces', async () => {
    const holder = newAccount();
    const hashes = await Promise.all(
      Array.from({ length: 5 }, () => f.adapter.mint({ token: usdc, minter: f.owner, to: holder.address, amount: 1_000_000n })),
    );
    expect(new Set(hashes).size).toBe(5);
    for (const hash of hashes) expect(await f.mined(hash)).toBe('success');
    expect(await balanceOf(usdc, holder.address)).toBe(5_000_000n);
  });
});

describe('ERC-20 transfers', () => {
  it('moves tokens from a local account with an explicit nonce', async () => {
    const sender = await f.fundedAccount({ token: usdc, amount: 10_000_000n });
    const recipient = newAccount();
    const nonce = await f.adapter.getNonce({ address: sender.address, blockTag: 'pending' });
    const hash = await f.adapter.sendTokenTransfer({ token: usdc, sender, to: recipient.address, amount: 2_500_000n, nonce });
    expect(await f.mined(hash)).toBe('success');
    expect(await balanceOf(usdc, sender.address)).toBe(7_500_000n);
    expect(await balanceOf(usdc, recipient.address)).toBe(2_500_000n);
    expect(await f.adapter.getNonce({ address: sender.address, blockTag: 'latest' })).toBe(nonce + 1);
  });

  it('refuses a transfer beyond the balance before anything is sent', async () => {
    const sender = await f.fundedAccount({ token: usdc, amount: 1_000_000n });
    await expectRevert(
      f.adapter.sendTokenTransfer({ token: usdc, sender, to: newAccount().address, amount: 1_000_001n, nonce: 0 }),
      'InsufficientBalance',
    );
    expect(await f.adapter.getNonce({ address: sender.address, blockTag: 'pending' })).toBe(0);
    expect(await balanceOf(usdc, sender.address)).toBe(1_000_000n);
  });
});

describe('EIP-3009 transferWithAuthorization', () => {
  it('moves funds when another account relays a holder-signed authorization, and marks the nonce used', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 50_000_000n });
    const relayer = await f.fundedAccount();
    const recipient = newAccount();
    const holderGasBefore = await f.adapter.getNativeBalance(holder.address);
    const signed = await authorization({ from: holder, to: recipient.address, value: 20_000_000n });
    expect(await f.adapter.getAuthorizationState({ token: usdc, authorizer: holder.address, nonce: signed.nonce })).toBe(false);

    const hash = await relay(relayer, signed);
    expect(await f.mined(hash)).toBe('success');
    expect(await balanceOf(usdc, holder.address)).toBe(30_000_000n);
    expect(await balanceOf(usdc, recipient.address)).toBe(20_000_000n);
    expect(await f.adapter.getAuthorizationState({ token: usdc, authorizer: holder.address, nonce: signed.nonce })).toBe(true);
    // The relayer paid the gas; the holder spent none.
    expect(await f.adapter.getNativeBalance(holder.address)).toBe(holderGasBefore);
    const receipt = await f.publicClient.getTransactionReceipt({ hash });
    const [used] = parseEventLogs({ abi: fullTokenAbi, eventName: 'AuthorizationUsed', logs: receipt.logs });
    expect(used?.args).toEqual({ authorizer: holder.address, nonce: signed.nonce });
  });

  it('refuses a replay of a used authorization', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 10_000_000n });
    const relayer = await f.fundedAccount();
    const signed = await authorization({ from: holder, to: relayer.address, value: 1_000_000n });
    expect(await f.mined(await relay(relayer, signed))).toBe('success');
    await expectRevert(relay(relayer, signed), 'AuthorizationAlreadyUsed');
    await expectRevert(relay(await f.fundedAccount(), signed), 'AuthorizationAlreadyUsed');
    expect(await balanceOf(usdc, holder.address)).toBe(9_000_000n);
  });

  it('refuses an expired authorization and one that is not valid yet', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 10_000_000n });
    const relayer = await f.fundedAccount();
    const expired = await authorization({ from: holder, to: relayer.address, value: 1n, validBefore: nowSeconds() - 60n });
    await expectRevert(relay(relayer, expired), 'AuthorizationExpired');
    const early = await authorization({
      from: holder,
      to: relayer.address,
      value: 1n,
      validAfter: nowSeconds() + 3600n,
      validBefore: nowSeconds() + 7200n,
    });
    await expectRevert(relay(relayer, early), 'AuthorizationNotYetValid');
    expect(await balanceOf(usdc, holder.address)).toBe(10_000_000n);
    expect(await f.adapter.getAuthorizationState({ token: usdc, authorizer: holder.address, nonce: early.nonce })).toBe(false);
  });

  it('refuses a signature by another key, a changed amount, and a signature for the other token', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 10_000_000n });
    const relayer = await f.fundedAccount();
    const forged = await authorization({ from: newAccount(), to: relayer.address, value: 1_000_000n });
    await expectRevert(relay(relayer, { ...forged, from: holder.address }), 'InvalidSignature');
    const genuine = await authorization({ from: holder, to: relayer.address, value: 1_000_000n });
    await expectRevert(relay(relayer, { ...genuine, value: 9_000_000n }), 'InvalidSignature');
    await expectRevert(relay(relayer, { ...genuine, to: newAccount().address }), 'InvalidSignature');
    const forEurc = await authorization({ from: holder, to: relayer.address, value: 1_000_000n, token: eurc });
    await expectRevert(relay(relayer, forEurc, usdc), 'InvalidSignature');
    expect(await balanceOf(usdc, holder.address)).toBe(10_000_000n);
  });

  it('accepts the signature as one bytes argument too (the USDC 2.2 form x402 facilitators use)', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 3_000_000n });
    const relayer = await f.fundedAccount();
    const signed = await authorization({ from: holder, to: relayer.address, value: 3_000_000n });
    const hash = await f.walletFor(relayer).writeContract({
      address: usdc,
      abi: fullTokenAbi,
      functionName: 'transferWithAuthorization',
      args: [signed.from, signed.to, signed.value, signed.validAfter, signed.validBefore, signed.nonce, signed.signature],
    });
    expect(await f.mined(hash)).toBe('success');
    expect(await balanceOf(usdc, relayer.address)).toBe(3_000_000n);
  });

  it('asks a contract holder (ERC-1271) whether it signed, in the bytes form', async () => {
    // Two tiny wallets, assembled by hand: one answers isValidSignature with the ERC-1271 magic
    // value 0x1626ba7e whatever it is asked, the other answers with zeros.
    const approving = newAccount().address;
    const refusing = newAccount().address;
    const testClient = createTestClient({
      chain: chainFor({ chainId: 137, rpcUrl: f.chain.rpcUrl }),
      transport: http(f.chain.rpcUrl),
      mode: 'anvil',
    });
    await testClient.setCode({ address: approving, bytecode: '0x631626ba7e60e01b60005260206000f3' });
    await testClient.setCode({ address: refusing, bytecode: '0x60206000f3' });
    const relayer = await f.fundedAccount();
    for (const wallet of [approving, refusing]) await f.mintMined({ token: usdc, to: wallet, amount: 1_000_000n });
    const call = (from: Address) => {
      const args = [from, relayer.address, 400_000n, 0n, nowSeconds() + 600n, randomAuthorizationNonce(), '0x1234'] as const;
      return { address: usdc, abi: fullTokenAbi, functionName: 'transferWithAuthorization', args, account: relayer } as const;
    };
    await expect(f.publicClient.simulateContract(call(refusing))).rejects.toThrow(/InvalidSignature/);
    expect(await f.mined(await f.walletFor(relayer).writeContract(call(approving)))).toBe('success');
    expect(await balanceOf(usdc, approving)).toBe(600_000n);
  });

  it('lets only the payee submit receiveWithAuthorization', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 2_000_000n });
    const payee = await f.fundedAccount();
    const nonce = randomAuthorizationNonce();
    const message = { from: holder.address, to: payee.address, value: 2_000_000n, validAfter: 0n, validBefore: nowSeconds() + 600n, nonce };
    const signature = await holder.signTypedData({
      domain: await f.adapter.getTokenDomain(usdc),
      types: { ReceiveWithAuthorization: transferTypeFields },
      primaryType: 'ReceiveWithAuthorization',
      message,
    });
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, nonce, signature] as const;
    const stranger = await f.fundedAccount();
    await expect(
      f.publicClient.simulateContract({
        address: usdc,
        abi: fullTokenAbi,
        functionName: 'receiveWithAuthorization',
        args,
        account: stranger,
      }),
    ).rejects.toThrow(/CallerMustBePayee/);
    const hash = await f
      .walletFor(payee)
      .writeContract({ address: usdc, abi: fullTokenAbi, functionName: 'receiveWithAuthorization', args });
    expect(await f.mined(hash)).toBe('success');
    expect(await balanceOf(usdc, payee.address)).toBe(2_000_000n);
  });

  it('makes a cancelled authorization unusable', async () => {
    const holder = await f.fundedAccount({ token: usdc, amount: 2_000_000n });
    const relayer = await f.fundedAccount();
    const signed = await authorization({ from: holder, to: relayer.address, value: 1_000_000n });
    const cancellation = await holder.signTypedData({
      domain: await f.adapter.getTokenDomain(usdc),
      types: {
        CancelAuthorization: [
          { name: 'authorizer', type: 'address' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'CancelAuthorization',
      message: { authorizer: holder.address, nonce: signed.nonce },
    });
    const hash = await f.walletFor(relayer).writeContract({
      address: usdc,
      abi: fullTokenAbi,
      functionName: 'cancelAuthorization',
      args: [holder.address, signed.nonce, cancellation],
    });
    expect(await f.mined(hash)).toBe('success');
    await expectRevert(relay(relayer, signed), 'AuthorizationAlreadyUsed');
    expect(await balanceOf(usdc, holder.address)).toBe(2_000_000n);
  });
});

const transferTypeFields = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

// EIP-2612's typed data: peerpay never signs a permit, but the sandbox token verifies them as Circle's tokens do.
const permitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

describe('EIP-2612 permit', () => {
  async function signPermit(holder: LocalAccount, spender: Address, value: bigint, deadline: bigint, nonce?: bigint) {
    return holder.signTypedData({
      domain: await f.adapter.getTokenDomain(eurc),
      types: permitTypes,
      primaryType: 'Permit',
      message: { owner: holder.address, spender, value, nonce: nonce ?? (await read<bigint>(eurc, 'nonces', [holder.address])), deadline },
    });
  }

  it('sets an allowance from a signature that the spender submits, once', async () => {
    const holder = await f.fundedAccount({ token: eurc, amount: 8_000_000n });
    const spender = await f.fundedAccount();
    const deadline = nowSeconds() + 600n;
    const signature = await signPermit(holder, spender.address, 5_000_000n, deadline);
    const args = [holder.address, spender.address, 5_000_000n, deadline, signature] as const;
    expect(
      await f.mined(await f.walletFor(spender).writeContract({ address: eurc, abi: fullTokenAbi, functionName: 'permit', args })),
    ).toBe('success');
    expect(await read(eurc, 'allowance', [holder.address, spender.address])).toBe(5_000_000n);
    expect(await read(eurc, 'nonces', [holder.address])).toBe(1n);

    const spend = await f.walletFor(spender).writeContract({
      address: eurc,
      abi: fullTokenAbi,
      functionName: 'transferFrom',
      args: [holder.address, spender.address, 4_000_000n],
    });
    expect(await f.mined(spend)).toBe('success');
    expect(await balanceOf(eurc, spender.address)).toBe(4_000_000n);
    expect(await read(eurc, 'allowance', [holder.address, spender.address])).toBe(1_000_000n);
    // The nonce is spent: the same signature no longer matches.
    await expect(
      f.publicClient.simulateContract({ address: eurc, abi: fullTokenAbi, functionName: 'permit', args, account: spender }),
    ).rejects.toThrow(/InvalidSignature/);
  });

  it('refuses a permit past its deadline', async () => {
    const holder = await f.fundedAccount();
    const spender = await f.fundedAccount();
    // Past by the chain's clock, which is what the contract reads (the wall clock can run ahead of
    // or behind the node's last block on a loaded machine).
    const deadline = (await f.publicClient.getBlock()).timestamp - 1n;
    const signature = await signPermit(holder, spender.address, 1n, deadline);
    await expect(
      f.publicClient.simulateContract({
        address: eurc,
        abi: fullTokenAbi,
        functionName: 'permit',
        args: [holder.address, spender.address, 1n, deadline, signature],
        account: spender,
      }),
    ).rejects.toThrow(/PermitExpired/);
  });
});
