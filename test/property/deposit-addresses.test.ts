// A deposit address from the parent's public half (adapters/wallet/deposit-addresses.ts) is the
// address of the private key the sweeps sign with: for any seed and any non-hardened index, the
// public derivation and the private one (HDKey, then privateKeyToAccount) agree. Were they to
// differ, users would be shown addresses whose tokens peerpay could not move.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { HDKey, privateKeyToAccount } from 'viem/accounts';
import { bytesToHex } from 'viem';
import { depositAddressDeriver } from '../../src/adapters/wallet/deposit-addresses.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';

const seeds = fc.uint8Array({ minLength: 16, maxLength: 64 });
const indexes = fc.integer({ min: 0, max: 2 ** 31 - 1 });

function privateAddress(parent: HDKey, index: number): string {
  return privateKeyToAccount(bytesToHex(parent.deriveChild(index).privateKey!)).address;
}

describe('deposit addresses from the public half of their parent', () => {
  it('equal the addresses of the privately derived keys, checksummed, without asking the private side', () => {
    fc.assert(
      fc.property(seeds, fc.array(indexes, { minLength: 1, maxLength: 5 }), (seed, picked) => {
        const parent = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
        const privateDerivation = vi.fn((index: number) => privateKeyToAccount(bytesToHex(parent.deriveChild(index).privateKey!)).address);
        const derive = depositAddressDeriver({ publicKey: parent.publicKey!, chainCode: parent.chainCode! }, privateDerivation);
        for (const index of picked) expect(derive(index)).toBe(privateAddress(parent, index));
        expect(privateDerivation).not.toHaveBeenCalled();
      }),
      { numRuns: 40 },
    );
  });

  it('are what the wallet provider hands out and what its signers sign with', () => {
    fc.assert(
      fc.property(seeds, indexes, (seed, index) => {
        const provider = createHdWalletProvider(seed);
        expect(provider.walletFor(index).address).toBe(provider.depositSigner(index).address);
      }),
      { numRuns: 40 },
    );
  });
});
