// Strict parameters: each route names every parameter it takes and how to check it; anything
// else is refused with Circle's code 2 naming the parameter, as Circle refuses a field it does
// not know. Query strings arrive as strings, bodies as JSON values.
import { isAddress } from 'viem';
import { circleErrors } from './errors.js';

export type Check = (value: unknown, name: string) => void;
export interface ParamSpec {
  check: Check;
  required?: boolean;
}
export type ParamSpecs = Record<string, ParamSpec>;

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^\d+(\.\d+)?$/;

const fail = (name: string, message: string) => circleErrors.parameter(name, `${name} ${message}`);

export const checks = {
  string: ((value, name) => {
    if (typeof value !== 'string' || value === '') throw fail(name, 'must be a non-empty string');
  }) as Check,
  uuid: ((value, name) => {
    if (typeof value !== 'string' || !UUID.test(value)) throw fail(name, 'must be a UUID');
  }) as Check,
  idempotencyKey: ((value, name) => {
    if (typeof value !== 'string' || !UUID_V4.test(value)) throw fail(name, 'must be a UUID version 4');
  }) as Check,
  address: ((value, name) => {
    if (typeof value !== 'string' || !isAddress(value, { strict: false })) throw fail(name, 'must be an address');
  }) as Check,
  /** Circle's tokenAddress: a contract, or empty for the chain's native token (with blockchain). */
  tokenAddress: ((value, name) => {
    if (typeof value !== 'string' || (value !== '' && !isAddress(value, { strict: false })))
      throw fail(name, 'must be an address or empty');
  }) as Check,
  oneOf:
    (...allowed: string[]): Check =>
    (value, name) => {
      if (typeof value !== 'string' || !allowed.includes(value)) throw fail(name, `must be one of ${allowed.join(', ')}`);
    },
  integer:
    (min: number, max: number): Check =>
    (value, name) => {
      const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw fail(name, `must be an integer in [${min}, ${max}]`);
    },
  boolean: ((value, name) => {
    if (value !== true && value !== false && value !== 'true' && value !== 'false') throw fail(name, 'must be true or false');
  }) as Check,
  date: ((value, name) => {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw fail(name, 'must be an RFC 3339 date');
  }) as Check,
  decimalAmounts: ((value, name) => {
    if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string' || !DECIMAL.test(value[0])) {
      throw fail(name, 'must be one decimal amount as a string');
    }
  }) as Check,
  stringArray: ((value, name) => {
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) {
      throw fail(name, 'must be a non-empty array of strings');
    }
  }) as Check,
  array: ((value, name) => {
    if (!Array.isArray(value)) throw fail(name, 'must be an array');
  }) as Check,
  uuidList: ((value, name) => {
    if (typeof value !== 'string' || !value.split(',').every((id) => UUID.test(id))) throw fail(name, 'must be UUIDs separated by commas');
  }) as Check,
};

/** Checks `params` against `specs`: no unknown names, every required one present, each value valid. */
export function checkParams(params: Record<string, unknown>, specs: ParamSpecs): void {
  for (const name of Object.keys(params)) {
    if (!(name in specs)) throw circleErrors.parameter(name, `${name} is not a parameter of this endpoint`);
  }
  for (const [name, spec] of Object.entries(specs)) {
    const value = params[name];
    if (value === undefined || value === null) {
      if (spec.required === true) throw circleErrors.parameter(name, `${name} is required`);
      continue;
    }
    spec.check(value, name);
  }
}

export const required = (check: Check): ParamSpec => ({ check, required: true });
export const optional = (check: Check): ParamSpec => ({ check });
