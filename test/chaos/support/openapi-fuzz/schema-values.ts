// fast-check arbitraries of values for a JSON schema of the OpenAPI document: values that fit the
// schema (biased toward the examples and toward values this run's users make meaningful), and
// values that break it in every way a careless or hostile client might.
import fc from 'fast-check';

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  examples?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  format?: string;
};

/** Values the run's fixtures make meaningful, by field name: a real recipient, a real address. */
export type Hints = Record<string, readonly unknown[]>;

const HOSTILE_STRINGS = [
  '',
  ' ',
  '../../etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  "' or 1=1 --",
  '"; drop table accounts; --',
  '\u0000',
  '\ud800',
  '😀'.repeat(50),
  'A'.repeat(10_000),
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '0x',
  '-1',
  '1e309',
  'NaN',
  'PA-' + 'X'.repeat(300),
];

const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  0.1 + 0.2,
  1e-7,
  5e-324,
  1e21,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  // More digits than a double holds, on purpose: what JSON sends is what the service must refuse or round.
  // eslint-disable-next-line no-loss-of-precision
  123456789.123456789,
  1_000_000,
  1_000_000.000001,
  1_000_001,
  999_999.9999999,
  0.000001,
  0.0000001,
  0.005,
  3650,
  3651,
];

/** Number literals JSON allows (or almost) that no JSON.stringify makes: past double range, more digits than a double keeps. */
const ODD_NUMBER_LITERALS = [
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '0.1000000000000000000001',
  '1.0000000000000001',
  '-0',
  '-0.0',
  '1E2',
  '1e+2',
  '0x10',
  '01',
  '.5',
  '5.',
  '+5',
  'Infinity',
  '-Infinity',
  'NaN',
  '1_000',
  '9007199254740993',
  '10.005',
];

/** Characters that break careless text handling: NUL and controls, bidi and BOM, lone surrogates, SQL and LIKE metacharacters. */
const ODD_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\n',
  '\r\n',
  '\t',
  '\u202e',
  '\ufeff',
  '\u00a0',
  '\ud800',
  '\udc00',
  '\u0301',
  '😀',
  "'",
  '"',
  '\\',
  '%',
  '_',
  '%00',
  '\u2028',
];

/** A real value with one odd character put somewhere in it: it gets past shape checks into the code behind them. */
export function withOddCharacter(value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(value, fc.constantFrom(...ODD_CHARACTERS), fc.nat()).map(([text, odd, at]) => {
    const i = text.length ? at % (text.length + 1) : 0;
    return text.slice(0, i) + odd + text.slice(i);
  });
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 1, maxLength: 1 }).map((c) => c.repeat(1 + 70_000 / 2)),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(null, true, false, [], {}, [[[[[]]]]], { $gt: '' }),
  fc.string({ maxLength: 40 }),
  fc.double({ noNaN: true }),
  fc.integer(),
);

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type;
}

/** A value that fits `schema` (as far as its keywords say). */
export function validValue(schema: Schema, name: string, hints: Hints): fc.Arbitrary<unknown> {
  const hinted = hints[name];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => validValue(s, name, hints)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const fromExamples = schema.examples?.length ? [fc.constantFrom(...schema.examples)] : [];
  const fromHints = hinted?.length ? [fc.constantFrom(...hinted)] : [];
  switch (typeOf(schema)) {
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 64, 64);
      const random = fc.oneof(
        fc.string({ minLength: min, maxLength: Math.max(min, max) }),
        fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, max) }),
      );
      // Real values (a recipient who exists, a currency peerpay has) reach the code behind validation.
      return fc.oneof(
        ...fromHints.map((arbitrary) => ({ arbitrary, weight: 6 })),
        ...fromExamples.map((arbitrary) => ({ arbitrary, weight: 1 })),
        { arbitrary: random, weight: 1 },
      );
    }
    case 'number':
    case 'integer': {
      const min = schema.minimum ?? 0;
      const max = Math.min(schema.maximum ?? 1000, 1000);
      const whole = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      const cents = fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100);
      return fc.oneof(
        ...fromHints.map((arbitrary) => ({ arbitrary, weight: 6 })),
        ...fromExamples,
        whole,
        ...(typeOf(schema) === 'number' ? [cents] : []),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items ?? {}, name, hints), { maxLength: 3 });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties)) record[key] = validValue(sub, key, hints);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in properties) });
    }
    default:
      return fc.oneof(...fromHints, ...fromExamples, fc.jsonValue({ maxDepth: 2 }));
  }
}

/** A valid object whose number field (or, without one, a new field) holds an odd number literal. */
export function rawNumberBody(schema: Schema, hints: Hints): fc.Arbitrary<string> {
  const numeric = Object.entries(schema.properties ?? {})
    .filter(([, s]) => ['number', 'integer'].includes(typeOf(s) ?? ''))
    .map(([k]) => k);
  const base = validValue(schema, '', hints).map((v) => (v && typeof v === 'object' ? { ...v } : {}) as Record<string, unknown>);
  return fc
    .tuple(base, fc.constantFrom(...(numeric.length ? numeric : ['amount'])), fc.constantFrom(...ODD_NUMBER_LITERALS))
    .map(([v, field, literal]) => JSON.stringify({ ...v, [field]: '__number__' }).replace('"__number__"', literal));
}

/** A valid object with one thing wrong: a field dropped, retyped, made huge, or an unknown field added. */
export function brokenObject(schema: Schema, hints: Hints): fc.Arbitrary<unknown> {
  const properties = Object.keys(schema.properties ?? {});
  const base = validValue(schema, '', hints).map((v) => (v && typeof v === 'object' ? { ...v } : {}) as Record<string, unknown>);
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.tuple(base, fc.string({ minLength: 1, maxLength: 12 }), hostileScalar).map(([v, k, x]) => ({ ...v, [`x_${k}`]: x })),
    fc
      .tuple(base, fc.constantFrom('__proto__', 'constructor', 'prototype'))
      .map(([v, k]) => JSON.parse(JSON.stringify(v).replace(/^\{/, `{"${k}":{"polluted":true},`).replace(',}', '}'))),
  ];
  if (properties.length) {
    const field = fc.constantFrom(...properties);
    mutations.push(fc.tuple(base, field).map(([v, f]) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== f))));
    mutations.push(fc.tuple(base, field, hostileScalar).map(([v, f, x]) => ({ ...v, [f]: x })));
    const textFields = properties.filter(
      (p) => typeOf(schema.properties![p]!) === 'string' || (schema.properties![p]!.anyOf ?? []).some((s) => typeOf(s) === 'string'),
    );
    if (textFields.length) {
      const textField = fc.constantFrom(...textFields);
      mutations.push(
        textField.chain((f) =>
          fc
            .tuple(
              base,
              withOddCharacter(validValue(schema.properties![f]!, f, hints).map((x) => (typeof x === 'string' ? x : String(x ?? '')))),
            )
            .map(([v, text]) => ({ ...v, [f]: text })),
        ),
      );
    }
    mutations.push(
      fc
        .tuple(base, field)
        .map(([v, f]) => ({ ...v, [f]: typeof v[f] === 'number' ? String(v[f]) : typeof v[f] === 'string' ? Number(v[f]) || 42 : 'text' })),
    );
  }
  return fc.oneof(...mutations);
}
