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
    [{ PEERPAY_MODE: 'live' }, /CHAIN_RPC_URL is required/],
    [{ PEERPAY_MODE: 'live', CHAIN_RPC_URL: 'http://127.0.0.1:8545', USDC_ADDRESS: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', EURC_ADDRESS: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D' }, /DATABASE_URL is required/],
    [{ CHAIN_RPC_URL: 'http://127.0.0.1:8545' }, /USDC_ADDRESS and EURC_ADDRESS are required/],
    [{ CHAIN_RPC_URL: 'http://127.0.0.1:8545', USDC_ADDRESS: '0x123', EURC_ADDRESS: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D' }, /USDC_ADDRESS must be/],
    [{ CHAIN_ID: '1' }, /CHAIN_ID must be 137 for the embedded chain/],
    [{ CHAIN_CONFIRMATIONS: '0' }, /CHAIN_CONFIRMATIONS must be between/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('strips a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://pay.example.com/' }).publicUrl).toBe('https://pay.example.com');
  });
});
