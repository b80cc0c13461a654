// WALLET_PROVIDER=circle's configuration (DESIGN §19): one line naming what is missing, the entity
// secret from its variable or its file, and no secret in any refusal or serialisation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const API_KEY = 'TEST_API_KEY:0123abcd:4567efgh';
const SECRET = 'ab'.repeat(32);
const CIRCLE = { WALLET_PROVIDER: 'circle', CIRCLE_API_KEY: API_KEY, CIRCLE_ENTITY_SECRET: SECRET };
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-circle-config-'));
afterAll(() => fs.rmSync(tempDir, { recursive: true, force: true }));

function messageFor(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

function file(content: string): string {
  const name = path.join(tempDir, `f-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(name, content, { mode: 0o600 });
  return name;
}

describe('WALLET_PROVIDER', () => {
  it('is self by default, with no Circle settings', () => {
    const config = loadConfig({});
    expect(config.walletProvider).toBe('self');
    expect(config.circle).toBeUndefined();
  });

  it("takes circle with Circle's defaults", () => {
    const config = loadConfig(CIRCLE);
    expect(config.walletProvider).toBe('circle');
    expect(config.circle).toMatchObject({
      apiKey: API_KEY,
      entitySecret: SECRET,
      apiBase: 'https://api.circle.com',
      walletSetId: undefined,
      blockchain: 'MATIC',
      accountType: 'SCA',
      facilitatorKeyHex: undefined,
    });
  });

  it.each([
    [
      { WALLET_PROVIDER: 'circle' },
      'WALLET_PROVIDER=circle requires CIRCLE_API_KEY, CIRCLE_ENTITY_SECRET or CIRCLE_ENTITY_SECRET_FILE (not set)',
    ],
    [
      { WALLET_PROVIDER: 'circle', CIRCLE_API_KEY: API_KEY },
      'WALLET_PROVIDER=circle requires CIRCLE_ENTITY_SECRET or CIRCLE_ENTITY_SECRET_FILE (not set)',
    ],
    [{ WALLET_PROVIDER: 'circle', CIRCLE_ENTITY_SECRET: SECRET }, 'WALLET_PROVIDER=circle requires CIRCLE_API_KEY (not set)'],
    [{ WALLET_PROVIDER: 'custodian' }, 'WALLET_PROVIDER must be one of self, circle, got "custodian"'],
    [{ ...CIRCLE, CIRCLE_BLOCKCHAIN: 'ETH' }, 'CIRCLE_BLOCKCHAIN must be one of MATIC, MATIC-AMOY, got "ETH"'],
    [{ ...CIRCLE, CIRCLE_ACCOUNT_TYPE: 'MPC' }, 'CIRCLE_ACCOUNT_TYPE must be one of SCA, EOA, got "MPC"'],
    [{ ...CIRCLE, CIRCLE_WALLET_SET_ID: 'set-1' }, 'CIRCLE_WALLET_SET_ID must be a Circle wallet set id (a UUID), got "set-1"'],
    [{ ...CIRCLE, CIRCLE_API_BASE: 'ftp://circle' }, 'CIRCLE_API_BASE must use http: or https:'],
  ])('refuses %j with one line', (env, line) => {
    const message = messageFor(env);
    expect(message).toBe(line);
    expect(message).not.toContain('\n');
  });

  it('never repeats a secret in a refusal', () => {
    const badKey = 'TEST_API_KEY: with a space';
    const badSecret = 'cd'.repeat(31);
    expect(messageFor({ ...CIRCLE, CIRCLE_API_KEY: badKey })).toBe(
      'CIRCLE_API_KEY must be a Circle API key: 8 to 512 printable characters without spaces',
    );
    expect(messageFor({ ...CIRCLE, CIRCLE_ENTITY_SECRET: badSecret })).toBe('CIRCLE_ENTITY_SECRET must be 32 bytes of hex (64 hex digits)');
    const wrongFile = file(`${badSecret}\n`);
    const message = messageFor({ WALLET_PROVIDER: 'circle', CIRCLE_API_KEY: API_KEY, CIRCLE_ENTITY_SECRET_FILE: wrongFile });
    expect(message).toBe(
      `CIRCLE_ENTITY_SECRET_FILE ${wrongFile} must hold the entity secret: 32 bytes of hex (64 hex digits, optional 0x)`,
    );
    expect(message).not.toContain(badSecret);
  });

  it('reads the entity secret and the facilitator key from files, and refuses both variables at once', () => {
    const key = 'ef'.repeat(32);
    const config = loadConfig({
      WALLET_PROVIDER: 'circle',
      CIRCLE_API_KEY: API_KEY,
      CIRCLE_ENTITY_SECRET_FILE: file(`0x${SECRET}\n`),
      FACILITATOR_KEY_FILE: file(key),
    });
    expect(config.circle?.entitySecret).toBe(SECRET);
    expect(config.circle?.facilitatorKeyHex).toBe(key);
    expect(messageFor({ ...CIRCLE, CIRCLE_ENTITY_SECRET_FILE: file(SECRET) })).toBe(
      'CIRCLE_ENTITY_SECRET and CIRCLE_ENTITY_SECRET_FILE are both set; set one of them',
    );
    const missing = path.join(tempDir, 'nowhere');
    expect(messageFor({ ...CIRCLE, FACILITATOR_KEY_FILE: missing })).toBe(`FACILITATOR_KEY_FILE ${missing} does not exist`);
  });

  it('serialises the configuration without its secrets', () => {
    const config = loadConfig({ ...CIRCLE, CIRCLE_WALLET_SET_ID: '0192F0A4-1C2B-7D3E-8F40-123456789ABC' });
    const text = JSON.stringify(config.circle);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toMatchObject({
      apiKey: '[redacted]',
      entitySecret: '[redacted]',
      walletSetId: '0192f0a4-1c2b-7d3e-8f40-123456789abc',
    });
  });
});
