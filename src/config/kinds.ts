// The kinds of variable schema.ts declares. Each is a TypeBox schema (plain JSON Schema) whose
// `description` is the variable's row in the README, plus a few annotations of peerpay's own that
// Ajv is told about (ANNOTATIONS) so that its strict mode accepts them:
//   refusal    completes "NAME ..." when a value is not in the variable's shape (pattern);
//   quoted     the refusal may repeat the value (never set on secrets, URLs or addresses);
//   whenUnset  the README's Default column for a variable without a fixed default;
//   keepEmpty  an empty value is validated as given instead of meaning unset.
// and one keyword, `protocols`, that read-env.ts gives Ajv: the URL schemes a URL variable accepts.
import { Type } from 'typebox';

export const ANNOTATIONS = ['refusal', 'quoted', 'whenUnset', 'keepEmpty'] as const;

/** What every variable declares: its meaning for the README, markdown on one line. */
type Described = {
  description: string;
  /** Markdown for the README's Default column when there is no `default`. */
  whenUnset?: string;
};

/** The fields of a variable's schema that peerpay reads back (the refusals, the README table). */
export interface VariableSchema {
  type?: string;
  description: string;
  default?: string | number;
  whenUnset?: string;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  pattern?: string;
  refusal?: string;
  quoted?: boolean;
  keepEmpty?: boolean;
  protocols?: readonly string[];
}

/** A whole number, written in decimal digits only, from `minimum` to `maximum`. */
export function wholeNumber(options: Described & { default?: number; minimum: number; maximum: number }) {
  return Type.Integer(options);
}

/** One of a few words. */
export function oneOf<const Values extends string[]>(
  values: readonly [...Values],
  options: Described & { default: Values[number]; keepEmpty?: true },
) {
  return Type.Enum(values, options);
}

/** Any text: what it names (a path, a host, a list) is checked after the schema, if at all. */
export function text(options: Described & { default?: string }) {
  return Type.String(options);
}

/** Text in a shape; `refusal` completes "NAME ..." for a value that is not in it. */
export function shaped(options: Described & { pattern: string; refusal: string; quoted?: true; default?: string }) {
  return Type.String(options);
}

/** A URL (as the WHATWG URL parser reads it) with one of the given schemes. */
export function url(protocols: readonly string[], options: Described & { default?: string; pattern?: string; refusal?: string }) {
  return Type.String({ ...options, format: 'url', protocols });
}

const ADDRESS = '^0x[0-9a-fA-F]{40}$';

/** An EVM address. */
export function address(options: Described) {
  return shaped({ ...options, pattern: ADDRESS, refusal: 'must be a 0x-prefixed 20-byte hex address' });
}

/** An amount of a 6-decimal token in major units ("1000", "250.5"). */
export function tokenAmount(options: Described) {
  return shaped({
    ...options,
    pattern: '^\\d{1,12}(\\.\\d{1,6})?$',
    refusal: 'must be an amount in major units with at most 6 decimals',
    quoted: true,
  });
}

/** A number of wei. */
export function wei(options: Described & { default: string }) {
  return shaped({ ...options, pattern: '^\\d{1,30}$', refusal: 'must be a whole number of wei', quoted: true });
}
