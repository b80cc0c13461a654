// Fuzz cases for one operation: the method and path (path parameters filled in), a raw query
// string, the headers (who is calling, content type, Idempotency-Key, the operation's own header
// parameters) and a raw body. A case is either valid on every axis, so that it reaches the code
// behind validation, or broken on one or a few axes, so that each refusal is checked on its own.
import fc from 'fast-check';
import {
  brokenObject,
  hostileScalar,
  hostileString,
  rawNumberBody,
  validValue,
  withOddCharacter,
  type Hints,
  type Schema,
} from './schema-values.js';

export interface Operation {
  method: string;
  /** The path template, `{name}` for a path parameter. */
  path: string;
  parameters: { in: string; name: string; required?: boolean; schema?: Schema }[];
  body?: Schema;
  /** No body schema in the document, but a body is read (the link pages' form or JSON `outcome`). */
  acceptsForm?: boolean;
  /** An HTML page (hidden from the document): its 4xx answers are pages, not problem documents. */
  page?: boolean;
  /** The statuses the document says this operation answers; undefined for undocumented routes. */
  statuses?: number[];
}

export interface FuzzCase {
  /** What the case breaks ("valid" when nothing), for the summary and a failure's message. */
  kind: string;
  method: string;
  path: string;
  /** The query string without its `?`, raw. */
  query: string;
  headers: Record<string, string | string[]>;
  body?: string;
  /** Sent this many times at once (a burst: races on the same key, e-mail or phone). */
  copies: number;
}

/**
 * Placeholders resolved when a case is sent: `{{keyN}}` the current API key of the fuzzer's n-th
 * user (keys change when a case revokes one), `{{link:purpose}}` a fresh link token of that kind,
 * `{{x402:path}}` a fresh signed x402 payment for that paid path.
 */
export const callerKey = (n: number) => `{{key${n}}}`;

const ODD_IDS = [
  '..',
  '../..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f..%2f',
  '....//',
  '.%00.',
  '%00',
  '%ZZ',
  '%',
  '%C0%AE%C0%AE',
  'a'.repeat(150),
  'a'.repeat(201),
  'a'.repeat(5000),
  '😀',
  '%F0%9F%98%80',
  'ﬀ',
  "1' or '1'='1",
  '1;select pg_sleep(5)--',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999999999999',
  '-1',
  '0',
  '1e400',
  'NaN',
  'null',
  'undefined',
  '[object Object]',
  '__proto__',
  '{token}',
];

const ODD_PATH_SUFFIXES = [
  '/',
  '/..',
  '/%2e%2e',
  '/../../etc/passwd',
  '/../../../package.json',
  '/%2e%2e/%2e%2e/%2e%2e/package.json',
  '/..%5c..%5cpackage.json',
  '//',
  '/%00',
  '/' + 'a'.repeat(3000),
  '/😀',
  '/1;select 1',
  '.json',
  ';jsessionid=1',
  '%20',
  '/%2e%2e/health',
];
const ODD_PATH_PREFIXES = ['/..', '/./', '//', '/%2e', '/docs/..', '/links/../'];
const ODD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'SEARCH'];

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; boundary=x; charset=utf-8',
  'APPLICATION/JSON',
  'application/json ',
  'application/vnd.api+json',
  'application/problem+json',
  'text/json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
  'application/octet-stream',
  'application/json, text/plain',
  '*/*',
  ';;;',
  'application/',
  '',
];

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

/** Valid path parameter values: what the fixtures made real (hints by name), else examples. */
function validPath(op: Operation, hints: Hints): fc.Arbitrary<string> {
  const names = pathParamNames(op.path);
  if (!names.length) return fc.constant(op.path);
  return fc
    .tuple(...names.map((name) => pick((hints[`path:${op.path}:${name}`] ?? hints[name] ?? ['x']) as string[])))
    .map((values) => fillPath(op.path, Object.fromEntries(names.map((n, i) => [n, values[i]!]))));
}

function hostilePath(op: Operation, hints: Hints): fc.Arbitrary<string> {
  const names = pathParamNames(op.path);
  const options: fc.Arbitrary<string>[] = [
    fc.tuple(validPath(op, hints), pick(ODD_PATH_SUFFIXES)).map(([p, s]) => p + s),
    fc.tuple(pick(ODD_PATH_PREFIXES), validPath(op, hints)).map(([prefix, p]) => prefix + p.slice(1)),
    validPath(op, hints).map((p) => p.toUpperCase()),
  ];
  if (names.length) {
    const odd = fc.oneof(pick(ODD_IDS), hostileString, fc.string({ unit: 'binary', maxLength: 30 }).map(pct));
    options.push(
      fc.tuple(...names.map(() => odd)).map((values) => fillPath(op.path, Object.fromEntries(names.map((n, i) => [n, values[i]!])))),
    );
    options.push(
      fc.tuple(...names.map(() => odd)).map((values) => fillPath(op.path, Object.fromEntries(names.map((n, i) => [n, values[i]!])))),
    );
  }
  return fc.oneof(...options);
}

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on a lone surrogate). */
function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8'))
    out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

const encode = (pairs: [string, string][]) => pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');

function validQuery(op: Operation, hints: Hints): fc.Arbitrary<[string, string][]> {
  const params = op.parameters.filter((p) => p.in === 'query');
  if (!params.length) return fc.constant([]);
  return fc
    .tuple(
      ...params.map((p) =>
        fc.option(
          validValue(p.schema ?? { type: 'string' }, p.name, hints).map((v) => [p.name, String(v)] as [string, string]),
          { nil: undefined, freq: p.required ? 20 : 2 },
        ),
      ),
    )
    .map((pairs) => pairs.filter((x): x is [string, string] => x !== undefined));
}

function hostileQuery(op: Operation, hints: Hints): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const names = params.length ? pick(params.map((p) => p.name)) : pick(['limit', 'cursor', 'x']);
  return fc.oneof(
    // One parameter hostile, the others valid.
    fc
      .tuple(validQuery(op, hints), names, hostileScalar)
      .map(([pairs, name, value]) =>
        encode([...pairs.filter(([k]) => k !== name), [name, typeof value === 'string' ? value : (JSON.stringify(value) ?? '')]]),
      ),
    // One parameter's real value with an odd character in it.
    fc.tuple(validQuery(op, hints), names).chain(([pairs, name]) => {
      const param = params.find((p) => p.name === name);
      const value = validValue(param?.schema ?? { type: 'string' }, name, hints).map((v) => String(v));
      return withOddCharacter(value).map((odd) => encode([...pairs.filter(([k]) => k !== name), [name, odd]]));
    }),
    // Repeated parameters (Fastify makes an array of them), unknown ones, bracket syntax.
    fc.tuple(validQuery(op, hints), names).map(([pairs, name]) => encode([...pairs, [name, '1'], [name, '2']])),
    fc.tuple(validQuery(op, hints), names).map(([pairs, name]) => `${encode(pairs)}&${name}[]=1&${name}[a]=2&unknown_param=1`),
    // Raw query strings no encoder would make.
    fc
      .tuple(
        validQuery(op, hints),
        pick([
          '%',
          '%ZZ',
          '&&&',
          '=',
          '=x',
          'a=%00',
          '%00=1',
          'a=%E0%A4%A',
          ';a=1',
          'a=1;b=2',
          '#frag',
          '?',
          'a=😀',
          'limit=99999999999999999999',
          'limit=-1',
          'limit=0x10',
          'limit=1e2',
          'limit= 5',
        ]),
      )
      .map(([pairs, raw]) => [encode(pairs), raw].filter(Boolean).join('&')),
    fc.tuple(validQuery(op, hints), names).map(([pairs, name]) => encode([...pairs, [name, 'q'.repeat(20_000)]])),
    fc.constant(Array.from({ length: 1500 }, (_, i) => `p${i}=${i}`).join('&')),
  );
}

interface Body {
  kind: string;
  body?: string;
  contentType?: string | string[];
  /** Framing headers the body needs (a chunked body has no Content-Length). */
  headers?: Record<string, string>;
}

function validBody(op: Operation, hints: Hints): fc.Arbitrary<Body> {
  if (op.acceptsForm) {
    const outcome = pick((hints.outcome ?? ['succeed']) as string[]);
    return fc.oneof(
      outcome.map((o) => ({ kind: 'valid', body: `outcome=${o}`, contentType: 'application/x-www-form-urlencoded' })),
      outcome.map((o) => ({ kind: 'valid', body: JSON.stringify({ outcome: o }), contentType: 'application/json' })),
      fc.constant({ kind: 'valid' }),
    );
  }
  if (!op.body) return fc.oneof(fc.constant({ kind: 'valid' }), fc.constant({ kind: 'valid', body: '', contentType: 'application/json' }));
  return validValue(op.body, '', hints).map((v) => ({ kind: 'valid', body: JSON.stringify(v), contentType: 'application/json' }));
}

function hostileBody(op: Operation, hints: Hints, bodyLimit: number): fc.Arbitrary<Body> {
  const schema: Schema = op.body ?? {
    type: 'object',
    properties: op.acceptsForm ? { outcome: { type: 'string', enum: (hints.outcome ?? ['succeed']) as string[] } } : {},
  };
  const json = (kind: string, value: fc.Arbitrary<unknown>) =>
    value.map((v) => ({ kind, body: JSON.stringify(v), contentType: 'application/json' }));
  const raw = (kind: string, value: fc.Arbitrary<string>) => value.map((body) => ({ kind, body, contentType: 'application/json' }));
  const valid = validValue(schema, '', hints);
  const options: fc.WeightedArbitrary<Body>[] = [
    { arbitrary: json('body: one field wrong', brokenObject(schema, hints)), weight: 8 },
    { arbitrary: raw('body: odd number literal', rawNumberBody(schema, hints)), weight: 2 },
    { arbitrary: json('body: any JSON', fc.jsonValue({ maxDepth: 3 })), weight: 1 },
    {
      arbitrary: raw(
        'body: malformed JSON',
        pick([
          '{',
          '}',
          '{"amount":}',
          '[1,2',
          '{"a":1}{"b":2}',
          'null',
          '"text"',
          '\u0000',
          '{"amount": 1e99999}',
          '{"to": "\\ud800"}',
          ' ',
          'undefined',
          "{'a':1}",
          '{"a":1,}',
          '\ufeff{}',
          '{"a":"\u0001"}',
          'NaN',
          '{"__proto__":{"admin":true}}',
        ]),
      ),
      weight: 3,
    },
    {
      arbitrary: valid.map((v) => ({
        kind: 'body: duplicate keys',
        body: JSON.stringify(v).replace(/^\{/, '{"amount":"1","currency":7,"to":[],').replace(/,\}$/, '}'),
        contentType: 'application/json',
      })),
      weight: 1,
    },
    { arbitrary: fc.constant({ kind: 'body: empty', body: '', contentType: 'application/json' }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'body: none' }), weight: 1 },
    {
      arbitrary: fc.constantFrom(bodyLimit - 200, bodyLimit + 1, bodyLimit * 4).map((n) => ({
        kind: `body: huge string (${n} bytes)`,
        body: JSON.stringify({ note: 'x'.repeat(n) }),
        contentType: 'application/json',
      })),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(100, bodyLimit + 1).map((n) => ({
        kind: `body: chunked (${n} bytes)`,
        body: JSON.stringify({ note: 'x'.repeat(n) }),
        contentType: 'application/json',
        headers: { 'transfer-encoding': 'chunked' },
      })),
      weight: 1,
    },
    {
      arbitrary: fc
        .integer({ min: 50, max: 20_000 })
        .map((d) => ({ kind: 'body: deep nesting', body: '['.repeat(d) + ']'.repeat(d), contentType: 'application/json' })),
      weight: 1,
    },
    {
      arbitrary: fc.integer({ min: 50, max: 5000 }).map((d) => ({
        kind: 'body: deep nesting in a field',
        body: '{"amount":' + '{"a":'.repeat(d) + '1' + '}'.repeat(d) + '}',
        contentType: 'application/json',
      })),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(valid, pick(CONTENT_TYPES)).map(([v, contentType]) => ({
        kind: `content type "${contentType}"`,
        body: contentType.includes('form-urlencoded')
          ? new URLSearchParams(Object.entries((v as object) ?? {}).map(([k, x]) => [k, String(x)])).toString()
          : contentType.startsWith('multipart')
            ? `--xyz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n10\r\n--xyz--\r\n`
            : JSON.stringify(v),
        contentType,
      })),
      weight: 3,
    },
    {
      arbitrary: valid.map((v) => ({
        kind: 'content type: two of them',
        body: JSON.stringify(v),
        contentType: ['application/json', 'text/plain'],
      })),
      weight: 1,
    },
    { arbitrary: valid.map((v) => ({ kind: 'content type: none', body: JSON.stringify(v) })), weight: 1 },
  ];
  return fc.oneof(...options);
}

function validAuth(users: number): fc.Arbitrary<Record<string, string | string[]>> {
  return fc.integer({ min: 0, max: users - 1 }).map((n) => ({ authorization: `Bearer ${callerKey(n)}` }));
}

const hostileAuth: fc.Arbitrary<Record<string, string | string[]>> = fc.constantFrom<Record<string, string | string[]>>(
  {},
  { authorization: '' },
  { authorization: 'Bearer' },
  { authorization: 'Bearer ' },
  { authorization: 'Bearer pa_live_' + 'A'.repeat(40) },
  { authorization: 'Bearer pa_live_' },
  { authorization: 'Bearer pa_live_é😀' },
  { authorization: "Bearer ' or 1=1 --" },
  { authorization: 'Basic dXNlcjpwYXNz' },
  { authorization: 'Bearer ' + 'x'.repeat(8000) },
  { authorization: `Bearer ${callerKey(0)}, Bearer ${callerKey(1)}` },
  { authorization: [`Bearer ${callerKey(0)}`, `Bearer ${callerKey(1)}`] },
  { authorization: [`Bearer ${callerKey(0)}`, 'Bearer nonsense'] },
  { authorization: `bearer    ${callerKey(0)}` },
  { authorization: `Bearer ${callerKey(0)}x` },
  { authorization: `Bearer ${callerKey(0)} trailing` },
  { authorization: `Token ${callerKey(0)}` },
);

/** Keys from a small pool come back with other bodies: replays and 422s, not only fresh keys. */
const validIdempotency: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 2 },
  { arbitrary: fc.uuid().map((k) => ({ 'idempotency-key': k })), weight: 3 },
  { arbitrary: pick(['fz-1', 'fz-2', 'fz-3', 'k'.repeat(255)]).map((k) => ({ 'idempotency-key': k })), weight: 2 },
);

const hostileIdempotency: fc.Arbitrary<Record<string, string | string[]>> = fc.constantFrom<Record<string, string | string[]>>(
  { 'idempotency-key': '' },
  { 'idempotency-key': ' ' },
  { 'idempotency-key': 'k'.repeat(256) },
  { 'idempotency-key': 'k'.repeat(10_000) },
  { 'idempotency-key': 'clé-é' },
  { 'idempotency-key': '😀' },
  { 'idempotency-key': '\t' },
  { 'idempotency-key': ['fz-1', 'fz-2'] },
  { 'idempotency-key': "'; drop table idempotency_keys; --" },
);

const hostileHeaders: fc.Arbitrary<Record<string, string | string[]>> = fc.constantFrom<Record<string, string | string[]>>(
  { 'x-forwarded-for': '1.2.3.4, 5.6.7.8, garbage' },
  { 'x-forwarded-host': 'evil.example' },
  { host: 'evil.example' },
  { host: '' },
  { accept: 'application/xml' },
  { accept: 'text/html;q=1, application/json;q=0' },
  { accept: '*/*;q=0' },
  { 'accept-charset': 'utf-16' },
  { 'accept-encoding': 'br;q=abc' },
  { 'x-large': 'h'.repeat(12_000) },
  { 'x-too-large': 'h'.repeat(20_000) },
  Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x-h${i}`, 'v'])),
  { 'x-request-id': '../../x' },
  { 'content-length': '0' },
  { 'transfer-encoding': 'chunked' },
  { 'transfer-encoding': 'gzip' },
  { expect: '100-continue' },
  { 'x-http-method-override': 'DELETE' },
  { 'x-payment': 'not-base64!!' },
  { 'payment-signature': 'e30=' },
  { 'x-payment': Buffer.from('{"x402Version":1,"scheme":"exact","network":"polygon","payload":{}}').toString('base64') },
  { 'x-payment-source': 'someone-else' },
  { 'x-payment-source': 'balance' },
  { cookie: 'session=' + 'c'.repeat(3000) },
);

function validOwnHeaders(op: Operation, hints: Hints): fc.Arbitrary<Record<string, string>> {
  const params = op.parameters.filter((p) => p.in === 'header' && p.name.toLowerCase() !== 'idempotency-key');
  if (!params.length) return fc.constant({});
  const valueOf = (p: Operation['parameters'][number]) => {
    const hinted = hints[`header:${p.name.toLowerCase()}`] as string[] | undefined;
    return hinted?.length ? pick(hinted) : validValue(p.schema ?? { type: 'string' }, p.name, hints).map(String);
  };
  return fc
    .tuple(...params.map((p) => fc.option(valueOf(p), { nil: undefined, freq: 2 })))
    .map((values) => Object.fromEntries(params.flatMap((p, i) => (values[i] === undefined ? [] : [[p.name.toLowerCase(), values[i]]]))));
}

type Axis = 'method' | 'path' | 'query' | 'auth' | 'idempotency' | 'headers' | 'body' | 'burst';

/** The hints of one operation: those keyed `<path>:<name>` over those keyed by name alone. */
function scopeHints(op: Operation, hints: Hints): Hints {
  const prefix = `${op.path}:`;
  const out: Record<string, readonly unknown[]> = { ...hints };
  for (const [key, values] of Object.entries(hints)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = values;
  return out;
}

/** Valid requests, and requests broken on one axis (most) or on several at once. */
export function casesFor(op: Operation, users: number, allHints: Hints, bodyLimit: number): fc.Arbitrary<FuzzCase> {
  const hints = scopeHints(op, allHints);
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  const axes: Axis[] = ['method', 'path', 'query', 'auth', 'idempotency', 'headers', ...(hasBody ? (['body'] as Axis[]) : [])];
  const broken = fc.oneof(
    { arbitrary: fc.constant<Axis[]>([]), weight: 5 },
    { arbitrary: pick(axes).map((a) => [a]), weight: 8 },
    { arbitrary: fc.subarray(axes, { minLength: 2, maxLength: 3 }), weight: 1 },
    { arbitrary: fc.constant<Axis[]>(['burst']), weight: 1 },
  );
  return broken.chain((axesBroken) => {
    const is = (a: Axis) => axesBroken.includes(a);
    return fc
      .record({
        method: is('method') ? pick(ODD_METHODS.filter((m) => m !== op.method)) : fc.constant(op.method),
        path: is('path') ? hostilePath(op, hints) : validPath(op, hints),
        query: is('query') ? hostileQuery(op, hints) : validQuery(op, hints).map(encode),
        auth: is('auth') ? hostileAuth : validAuth(users),
        idempotency: is('idempotency') ? hostileIdempotency : validIdempotency,
        own: validOwnHeaders(op, hints),
        extra: is('headers') ? hostileHeaders : fc.constant({}),
        body: is('body') ? hostileBody(op, hints, bodyLimit) : hasBody ? validBody(op, hints) : fc.constant<Body>({ kind: 'valid' }),
      })
      .map(({ method, path, query, auth, idempotency, own, extra, body }) => {
        const headers: Record<string, string | string[]> = { ...auth, ...idempotency, ...own, ...extra, ...body.headers };
        if (body.contentType !== undefined && body.contentType !== '') headers['content-type'] = body.contentType;
        // A Content-Length that disagrees with the body is a framing error our own client would
        // refuse to send; keep it only when it is true.
        if (headers['content-length'] !== undefined && (body.body ?? '') !== '') delete headers['content-length'];
        const kind = axesBroken.length === 0 ? 'valid' : axesBroken.map((a) => (a === 'body' ? body.kind : a)).join(' + ');
        const copies = is('burst') ? 3 : 1;
        return {
          kind,
          method,
          path,
          query,
          headers,
          copies,
          ...(body.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: body.body } : {}),
        };
      });
  });
}
