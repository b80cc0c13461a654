// Per-endpoint parameter specs, checked the way Stripe checks them before an endpoint runs: unknown
// parameters refused (`parameter_unknown`, naming the parameter in bracket notation), values of the
// wrong type refused (`parameter_invalid_integer`, booleans only `true`/`false`), required ones
// missing refused (`parameter_missing`), and an empty string read as "unset" (so it is refused for a
// required parameter with `parameter_invalid_empty`). Everything thrown here is a parameter error,
// which an idempotent request does not save.
import { parameterError } from './errors.js';
import { type FormHash, type FormNode, paramName } from './form-params.js';

export interface Field<T, R extends boolean = false> {
  readonly required: R;
  /** Reads a non-empty raw value; `name` is the bracket spelling used in error messages. */
  read(raw: FormNode, name: string): T;
}

type AnyField = Field<unknown, boolean>;
export type Fields = Record<string, AnyField>;

type ValueOf<F> = F extends Field<infer T, boolean> ? T : never;
type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends Field<unknown, true> ? K : never }[keyof F];
type OptionalKeys<F extends Fields> = Exclude<keyof F, RequiredKeys<F>>;

/** What a spec yields: required fields present, optional ones possibly absent. */
export type Parsed<F extends Fields> = { [K in RequiredKeys<F>]: ValueOf<F[K]> } & { [K in OptionalKeys<F>]?: ValueOf<F[K]> };

export function required<T>(field: Field<T, false>): Field<T, true> {
  return { required: true, read: field.read };
}

function scalar(raw: FormNode, name: string, kind: string): string {
  if (typeof raw !== 'string') throw parameterError(`Invalid ${kind}: a hash was sent for ${name}.`, { param: name });
  return raw;
}

export function string<const E extends string = string>(opts: { oneOf?: readonly E[]; maxLength?: number } = {}): Field<E> {
  return {
    required: false,
    read(raw, name) {
      const value = scalar(raw, name, 'string');
      if (opts.maxLength !== undefined && value.length > opts.maxLength) {
        throw parameterError(`Invalid string: ${name} must be at most ${opts.maxLength} characters long.`, { param: name });
      }
      if (opts.oneOf !== undefined && !opts.oneOf.includes(value as E)) {
        throw parameterError(`Invalid ${name}: must be one of ${opts.oneOf.join(', ')}`, { param: name });
      }
      return value as E;
    },
  };
}

export function integer(): Field<number> {
  return {
    required: false,
    read(raw, name) {
      const value = scalar(raw, name, 'integer');
      const n = Number(value);
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) {
        throw parameterError(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: name });
      }
      return n;
    },
  };
}

/** Stripe's booleans are the literal strings `true`/`false`; `also` admits extra enum spellings (off_session). */
export function boolean<const E extends string = never>(also: readonly E[] = []): Field<boolean | E> {
  return {
    required: false,
    read(raw, name) {
      const value = scalar(raw, name, 'boolean');
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (also.includes(value as E)) return value as E;
      throw parameterError(`Invalid boolean: ${value}`, { param: name });
    },
  };
}

/** Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500; empty values unset a key. */
export function metadata(): Field<Record<string, string>> {
  return {
    required: false,
    read(raw, name) {
      if (typeof raw === 'string') throw parameterError(`Invalid object: ${name} must be a hash of keys and values.`, { param: name });
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(raw)) {
        const keyName = `${name}[${key}]`;
        if (typeof value !== 'string')
          throw parameterError(`Invalid string: metadata values must be strings (${keyName}).`, { param: keyName });
        if (key.length > 40) throw parameterError(`Metadata keys can have at most 40 characters (${key}).`, { param: keyName });
        if (value.length > 500) throw parameterError(`Metadata values can have at most 500 characters (${keyName}).`, { param: keyName });
        if (value !== '') out[key] = value;
      }
      if (Object.keys(out).length > 50) throw parameterError('Metadata can have at most 50 keys.', { param: name });
      return out;
    },
  };
}

/** An array sent as `x[]=a` or `x[0]=a`; a bare `x=a` is refused as Stripe refuses it. */
export function arrayOf<T>(item: Field<T, boolean>): Field<T[]> {
  return {
    required: false,
    read(raw, name) {
      if (typeof raw === 'string')
        throw parameterError(`Invalid array: ${name} must be sent as ${name}[]=… or ${name}[0]=…`, { param: name });
      const keys = Object.keys(raw);
      if (!keys.every((k) => /^\d+$/.test(k))) throw parameterError(`Invalid array: ${name}`, { param: name });
      return keys
        .map(Number)
        .sort((a, b) => a - b)
        .map((index) => item.read(raw[String(index)] as FormNode, `${name}[${index}]`));
    },
  };
}

export function hash<F extends Fields>(fields: F): Field<Parsed<F>> {
  return {
    required: false,
    read(raw, name) {
      if (typeof raw === 'string') throw parameterError(`Invalid object: ${name} must be a hash.`, { param: name });
      return readFields(fields, raw, [name]);
    },
  };
}

function readFields<F extends Fields>(fields: F, tree: FormHash, prefix: string[]): Parsed<F> {
  for (const key of Object.keys(tree)) {
    if (!Object.prototype.hasOwnProperty.call(fields, key)) {
      const name = paramName([...prefix, key]);
      throw parameterError(`Received unknown parameter: ${name}`, { code: 'parameter_unknown', param: name });
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const name = paramName([...prefix, key]);
    const raw = Object.prototype.hasOwnProperty.call(tree, key) ? tree[key] : undefined;
    if (raw === undefined) {
      if (field.required) throw parameterError(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
      continue;
    }
    if (raw === '') {
      if (field.required) {
        throw parameterError(
          `You passed an empty string for '${name}'. We assume empty values are an attempt to unset a parameter; however '${name}' cannot be unset. You should remove '${name}' from your request or supply a non-empty value.`,
          { code: 'parameter_invalid_empty', param: name },
        );
      }
      continue;
    }
    out[key] = field.read(raw, name);
  }
  return out as Parsed<F>;
}

/** Reads a whole request's parameters against its spec. Every endpoint also takes `expand[]`. */
export function readParams<F extends Fields>(fields: F, tree: FormHash): Parsed<F> & { expand?: string[] } {
  return readFields({ ...fields, expand: arrayOf(string()) }, tree, []) as Parsed<F> & { expand?: string[] };
}
