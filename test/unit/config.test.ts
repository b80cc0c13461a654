import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('defaults to sandbox mode on port 3000 with PGlite in ./data', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('sandbox');
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.publicUrl).toBe('http://127.0.0.1:3000');
    expect(config.maxFiatTransferMajor).toBe(1_000_000n);
    expect(config.passwordHashCostLog2).toBe(17);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ PEERPAY_MODE: 'prod' }, /PEERPAY_MODE/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be a URL/],
    [{ MASTER_SEED: 'abc' }, /MASTER_SEED must be 32 bytes/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ MAX_FIAT_TRANSFER_MAJOR: '-5' }, /MAX_FIAT_TRANSFER_MAJOR/],
    [{ PEERPAY_MODE: 'live' }, /DATABASE_URL is required/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('strips a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://pay.example.com/' }).publicUrl).toBe('https://pay.example.com');
  });
});
