import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesToHex, getAddress } from 'viem';
import { HDKey, privateKeyToAddress } from 'viem/accounts';
import { hashApiKey, isWellFormedApiKey, issueApiKey } from '../../src/accounts/api-keys.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { loadMasterSeed } from '../../src/adapters/wallet/master-seed.js';
import { createPasswordHasher } from '../../src/accounts/password-hasher.js';
import { base62 } from '../../src/platform/ids.js';

describe('API keys', () => {
  it('look like pa_live_ + 43 base62 characters + a 6-character checksum, and are unique', () => {
    const keys = Array.from({ length: 50 }, () => issueApiKey());
    for (const { key, hash, last4 } of keys) {
      expect(key).toMatch(/^pa_live_[0-9A-Za-z]{49}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(hash).toBe(hashApiKey(key));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(key.endsWith(last4)).toBe(true);
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(50);
  });

  it('keeps accepting keys issued before (the checksum is computed as it always was)', () => {
    // Issued by an earlier build; its checksum must still verify, or every key in use would be refused.
    expect(isWellFormedApiKey('pa_live_GyOtfd9TrNSRV956czEAwAf2rKHv9sKBmvWqOXd1axJhovqZ0')).toBe(true);
    expect(isWellFormedApiKey('pa_live_GyOtfd9TrNSRV956czEAwAf2rKHv9sKBmvWqOXd1axJhovqZ1')).toBe(false);
  });

  it('accepts every key whose checksum is the definition’s: the last 6 base62 characters of the first 5 digest bytes', () => {
    // The definition written the long way, as keys were first issued; the service computes it faster.
    const reference = (body: string) => base62(createHash('sha256').update(`pa_live_${body}`).digest().subarray(0, 5)).slice(-6);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const body = base62(bytes);
        expect(isWellFormedApiKey(`pa_live_${body}${reference(body)}`)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('the checksum catches any single changed character', () => {
    const { key } = issueApiKey();
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: key.length - 1 }),
        fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'),
        (at, char) => {
          fc.pre(key[at] !== char);
          expect(isWellFormedApiKey(key.slice(0, at) + char + key.slice(at + 1))).toBe(false);
        },
      ),
    );
  });
});

describe('HD wallet provider', () => {
  const seed = Buffer.from('11'.repeat(32), 'hex');

  it('derives the same checksummed address for the same index, and different ones for others', () => {
    const provider = createHdWalletProvider(seed);
    const first = provider.walletFor(1);
    expect(createHdWalletProvider(seed).walletFor(1)).toEqual(first);
    expect(first.address).toBe(getAddress(first.address));
    const addresses = new Set(Array.from({ length: 20 }, (_, i) => provider.walletFor(i).address));
    expect(addresses.size).toBe(20);
    expect(createHdWalletProvider(Buffer.from('22'.repeat(32), 'hex')).walletFor(1).address).not.toBe(first.address);
  });

  it('derives the paths it names, so the addresses of every existing installation stay the same', () => {
    const provider = createHdWalletProvider(seed);
    const root = HDKey.fromMasterSeed(seed);
    const at = (derivation: string) => privateKeyToAddress(bytesToHex(root.derive(derivation).privateKey!));
    for (const index of [0, 1, 37, 2 ** 31 - 1]) {
      expect(provider.walletFor(index).address).toBe(at(`m/44'/60'/0'/0/${index}`));
      expect(provider.depositSigner(index).address).toBe(at(`m/44'/60'/0'/0/${index}`));
    }
    expect(provider.hotWallet.address).toBe(at("m/44'/60'/1'/0/0"));
    expect(provider.sandboxTokenOwner.address).toBe(at("m/44'/60'/2'/0/0"));
  });

  it('refuses indexes outside the non-hardened range', () => {
    const provider = createHdWalletProvider(seed);
    expect(() => provider.walletFor(-1)).toThrow(RangeError);
    expect(() => provider.walletFor(2 ** 31)).toThrow(RangeError);
    expect(() => provider.walletFor(1.5)).toThrow(RangeError);
  });
});

describe('master seed', () => {
  it('is generated once into DATA_DIR with mode 0600 and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-seed-'));
    const first = loadMasterSeed({ seedHex: undefined, dataDir: dir });
    const file = path.join(dir, 'master-seed');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(loadMasterSeed({ seedHex: undefined, dataDir: dir }))).toEqual(Buffer.from(first));
    expect(first.length).toBe(32);
    fs.rmSync(dir, { recursive: true });
  });

  it('uses MASTER_SEED when configured', () => {
    expect(Buffer.from(loadMasterSeed({ seedHex: '0x' + 'cd'.repeat(32), dataDir: '/nonexistent' })).toString('hex')).toBe('cd'.repeat(32));
  });
});

describe('password hasher', () => {
  it('verifies the right password only, and salts every hash', async () => {
    const hasher = createPasswordHasher({ costLog2: 10, concurrency: 2 });
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$10\$/);
    expect(await hasher.verify('correct horse', a)).toBe(true);
    expect(await hasher.verify('correct horsf', a)).toBe(false);
    expect(await hasher.verify('correct horse', 'garbage')).toBe(false);
  });
});
