// What the schema promises for every variable it declares, checked variable by variable: a default
// is a value the variable accepts, a refusal names the variable in one line, and a variable that
// may hold a secret or a password is never repeated in one.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { CONFIG_VARIABLES, variableSchema } from '../../src/config/schema.js';

function messageFor(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const withDefault = CONFIG_VARIABLES.filter((name) => variableSchema(name).default !== undefined);
/** The variables the schema itself can refuse: the rest are text checked after it, or not at all. */
const checked = CONFIG_VARIABLES.filter((name) => {
  const schema = variableSchema(name);
  return schema.type === 'integer' || schema.enum !== undefined || schema.pattern !== undefined || schema.protocols !== undefined;
});

describe('every variable of the schema', () => {
  it('has a meaning for the README', () => {
    for (const name of CONFIG_VARIABLES) expect(variableSchema(name).description, name).toMatch(/\S/);
  });

  it.each(withDefault)('%s: its default, given, is what leaving it unset gives', (name) => {
    expect(loadConfig({ [name]: String(variableSchema(name).default) })).toEqual(loadConfig({}));
  });

  it('covers most variables with a check of its own', () => {
    expect(checked.length).toBeGreaterThan(50);
  });

  it.each(checked)('%s: a bad value is refused in one line that names it', (name) => {
    const value = ' not-valid-0x';
    const message = messageFor({ [name]: value });
    expect(message.startsWith(`${name} `), message).toBe(true);
    expect(message).not.toContain('\n');
    const schema = variableSchema(name);
    const repeatable = schema.quoted === true || schema.type === 'integer' || schema.enum !== undefined;
    if (!repeatable) expect(message).not.toContain('not-valid');
  });
});

describe('whole numbers', () => {
  it.each([' 5', '5 ', '5.0', '1e3', '0x10', '+5', '-5'])('are written in digits only, not %j', (value) => {
    expect(messageFor({ CHAIN_CONFIRMATIONS: value })).toBe(`CHAIN_CONFIRMATIONS must be a whole number, got ${JSON.stringify(value)}`);
  });

  it('name their bounds when out of them', () => {
    expect(messageFor({ CHAIN_CONFIRMATIONS: '1001' })).toBe('CHAIN_CONFIRMATIONS must be between 1 and 1000, got 1001');
  });
});

describe('empty values', () => {
  it('mean unset', () => {
    const empty = Object.fromEntries(CONFIG_VARIABLES.filter((name) => name !== 'PEERPAY_MODE').map((name) => [name, '']));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  it('except PEERPAY_MODE, which is refused rather than read as sandbox', () => {
    expect(messageFor({ PEERPAY_MODE: '' })).toBe('PEERPAY_MODE must be one of sandbox, live, got ""');
  });
});

describe('STRIPE_TIMEOUT_MS', () => {
  it('is checked in sandbox mode too, where Stripe is not used', () => {
    expect(messageFor({ STRIPE_TIMEOUT_MS: '10' })).toBe('STRIPE_TIMEOUT_MS must be between 100 and 120000, got 10');
  });
});
