// Schema validation failures (ajv errors, as Fastify reports them) turned into one sentence a
// person can act on, and the RFC 9457 `errors` member that points at the field. Enumerations name
// their values ("paymentMethod must be one of instant, ach"), never a raw keyword or pattern.
import type { FastifySchemaValidationError } from 'fastify';

export type ValidationContext = 'body' | 'querystring' | 'params' | 'headers';

export interface ValidationProblem {
  detail: string;
  /** RFC 9457 §3's `errors` member: where the request went wrong, and how. */
  errors: ValidationError[];
}

export type ValidationError =
  { detail: string; pointer: string } | { detail: string; parameter: string } | { detail: string; header: string };

type Schema = Record<string, unknown>;

/**
 * The sentence for the first failure of a request part. `routeSchema` is that part's schema as the
 * route declared it, so that messages can name allowed values and fields; without it messages are
 * still sentences, only less specific.
 */
export function validationProblem(
  errors: readonly FastifySchemaValidationError[],
  context: string | undefined,
  routeSchema: unknown,
): ValidationProblem {
  const where = (context ?? 'body') as ValidationContext;
  const error = outermost(errors);
  if (!error) return { detail: 'The request is not valid.', errors: [] };
  const schemaAt = (path: string) => resolve(routeSchema, path);
  const base = error.instancePath ?? '';
  const member =
    error.keyword === 'required'
      ? error.params?.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params?.additionalProperty
        : undefined;
  const path = member === undefined ? base : `${base}/${escape(typeof member === 'string' ? member : JSON.stringify(member))}`;
  const detail = describe(error, schemaAt, where);
  const subject = fieldName(where, error.keyword === 'additionalProperties' ? base : path);
  return { detail: `${subject} ${detail}.`, errors: [pointerOf(where, path, detail)] };
}

/** The failure to report: the combinator's own error (anyOf) rather than one of its branches'. */
function outermost(errors: readonly FastifySchemaValidationError[]): FastifySchemaValidationError | undefined {
  const combinator = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  return combinator ?? errors[0];
}

function describe(error: FastifySchemaValidationError, schemaAt: (path: string) => Schema | undefined, where: ValidationContext): string {
  const params = error.params ?? {};
  const schemaPath = error.schemaPath ?? '';
  const own = schemaAt(parentPath(schemaPath));
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties': {
      const allowed = Object.keys((own?.properties as Schema | undefined) ?? {});
      const noun = where === 'querystring' ? 'query parameter' : 'field';
      const known = allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : `this operation takes no ${noun}s`;
      return `has an unknown ${noun} "${String(params.additionalProperty)}" (${known})`;
    }
    case 'type':
      return `must be ${typePhrase(String(params.type))}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be ${String(params.allowedValue)}`;
    case 'anyOf':
    case 'oneOf':
      return `must be ${alternatives((own?.[error.keyword] as Schema[] | undefined) ?? [])}`;
    case 'pattern': {
      const description = typeof own?.description === 'string' ? own.description : undefined;
      return description ? `is not in the expected form (${description})` : 'is not in the expected form';
    }
    case 'minLength':
      return Number(params.limit) === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'minItems':
      return `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    default:
      return error.message ?? 'is not valid';
  }
}

/** "one of instant, ach" for literals, "a string or null" for types. */
function alternatives(branches: Schema[]): string {
  const literals = branches.flatMap((b): unknown[] =>
    'const' in b ? [b.const] : Array.isArray(b.enum) ? (b.enum as unknown[]) : [undefined],
  );
  if (literals.length > 0 && literals.every((v) => v !== undefined)) return `one of ${literals.map(String).join(', ')}`;
  const phrases = branches.map((b) =>
    'const' in b ? String(b.const) : typeof b.type === 'string' ? typePhrase(b.type) : 'another allowed form',
  );
  return [...new Set(phrases)].join(' or ');
}

function typePhrase(type: string): string {
  return type
    .split(',')
    .map(
      (t) =>
        ({
          string: 'a string',
          number: 'a number',
          integer: 'an integer',
          boolean: 'true or false',
          object: 'an object',
          array: 'an array',
          null: 'null',
        })[t] ?? t,
    )
    .join(' or ');
}

function rootName(where: ValidationContext): string {
  return { body: 'The request body', querystring: 'The query string', params: 'The path', headers: 'The request headers' }[where];
}

/** `paymentMethod`, `recipient.address`, `items[0]` for the body; the bare name for a parameter. */
function fieldName(where: ValidationContext, pointer: string): string {
  if (pointer === '') return rootName(where);
  const segments = pointer.slice(1).split('/').map(unescape);
  const name = segments.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out === '' ? s : `${out}.${s}`), '');
  if (where === 'headers') return `The ${name} header`;
  if (where === 'params') return `The path parameter ${name}`;
  return name;
}

function pointerOf(where: ValidationContext, pointer: string, detail: string): ValidationError {
  const name = pointer.slice(1).split('/').map(unescape)[0] ?? '';
  if (where === 'querystring' || where === 'params') return { detail, parameter: name };
  if (where === 'headers') return { detail, header: name };
  return { detail, pointer: `#${pointer}` };
}

function parentPath(schemaPath: string): string {
  return schemaPath.slice(0, schemaPath.lastIndexOf('/'));
}

/** The sub-schema at a `#/…` schema path of the route's schema, if it can be followed. */
function resolve(root: unknown, schemaPath: string): Schema | undefined {
  if (!schemaPath.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const segment of schemaPath
    .slice(1)
    .split('/')
    .filter((s) => s !== '')
    .map(unescape)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== null && typeof node === 'object' ? (node as Schema) : undefined;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
