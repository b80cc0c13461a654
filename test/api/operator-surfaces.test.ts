// The operator surfaces (DESIGN §17): without a valid operator credential every /admin/* path
// answers exactly as a path that does not exist. Compared on the socket, byte for byte, with the
// answer for an unknown path of the same length sent with the same headers: only what differs
// between any two answers (the date, the request id, the rate-limit counters) and the path itself
// are set aside, and the test first shows that two unknown paths differ in nothing else.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
let server: TestServer;
let user: TestUser;
/** An operator's own token, once its operator is disabled: refused as an unknown token is. */
let disabledToken: string;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  user = await registerUser(server);
  const made = await server.request('POST', '/admin/operators', {
    key: OPERATOR_TOKEN,
    body: { name: 'gone', role: 'admin', note: 'to disable' },
  });
  disabledToken = made.body.token;
  const disabled = await server.request('POST', `/admin/operators/${made.body.operator.id}/disable`, {
    key: OPERATOR_TOKEN,
    body: { note: 'left' },
  });
  if (disabled.status !== 200) throw new Error(`could not disable: ${disabled.text}`);
});
afterAll(async () => {
  await server?.close();
});

/** One request on its own connection; the whole answer as the socket carried it. */
function rawExchange(url: string, method: string, path: string, headers: Record<string, string>, body = ''): Promise<string> {
  const { hostname, port } = new URL(url);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== '') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    // Written, not ended: the server closes the connection once it has answered (Connection: close).
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/**
 * Sets aside what differs between any two answers, and the path the request named. The request id
 * (a counter) grows a character now and then, and the body carries it once: the length compared is
 * the body's less the id's, and the path's the same way.
 */
function normalised(raw: string, path: string): string {
  const pathname = path.split('?')[0]!;
  const id = /^x-request-id: (.*)$/im.exec(raw)?.[1] ?? '';
  const pathInBody = raw.slice(raw.indexOf('\r\n\r\n')).includes(pathname) ? pathname.length : 0;
  return raw
    .replace(
      /^content-length: (\d+)$/im,
      (_line, length: string) => `content-length: ${Number(length) - id.length - pathInBody}+<id>+<path>`,
    )
    .split(pathname)
    .join('<path>')
    .replace(/^date: .*$/gim, 'date: <date>')
    .replace(/^x-request-id: .*$/gim, 'x-request-id: <id>')
    .replace(/"requestId":"[^"]*"/g, '"requestId":"<id>"')
    .replace(/^(x-ratelimit-remaining|x-ratelimit-reset|ratelimit-remaining|ratelimit-reset): \d+$/gim, '$1: <n>')
    .replace(/^ratelimit: "default";r=\d+;t=\d+$/gim, 'ratelimit: "default";r=<n>;t=<n>');
}

/** An unknown path as long as `path` (its query kept), so that the lengths of the two answers are comparable. */
function unknownLike(path: string): string {
  const [pathname, query] = path.split('?');
  return `/${'z'.repeat(pathname!.length - 1)}${query === undefined ? '' : `?${query}`}`;
}

async function expectAnsweredAsUnknown(
  target: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
  /** What the unknown path answers; null where that is not the point (it is compared all the same). */
  status: number | null = 404,
) {
  const reference = unknownLike(path);
  const unknown = await rawExchange(target.url, method, reference, headers, body);
  const admin = await rawExchange(target.url, method, path, headers, body);
  if (status !== null) expect(admin.startsWith(`HTTP/1.1 ${status} `), admin).toBe(true);
  expect(normalised(admin, path)).not.toMatch(/www-authenticate|realm|operator|bearer|admin/i);
  expect(normalised(admin, path)).toBe(normalised(unknown, reference));
}

const wellFormedUserKey = () => user.key;
const CREDENTIAL_CASES: [string, () => Record<string, string>][] = [
  ['no Authorization header', () => ({})],
  ['a wrong token', () => ({ Authorization: 'Bearer not-the-operator-token-0123456789abcdef' })],
  ['the operator token with one more character', () => ({ Authorization: `Bearer ${OPERATOR_TOKEN}x` })],
  ['the operator token less its last character', () => ({ Authorization: `Bearer ${OPERATOR_TOKEN.slice(0, -1)}` })],
  ['a malformed header (another scheme)', () => ({ Authorization: `Basic ${Buffer.from(`op:${OPERATOR_TOKEN}`).toString('base64')}` })],
  ['a malformed header (no token)', () => ({ Authorization: 'Bearer' })],
  ['a malformed header (two tokens)', () => ({ Authorization: `Bearer ${OPERATOR_TOKEN} ${OPERATOR_TOKEN}` })],
  ['a user API key (pa_live_)', () => ({ Authorization: `Bearer ${wellFormedUserKey()}` })],
  ['an operator token (po_) no operator has', () => ({ Authorization: 'Bearer po_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG' })],
  ["a disabled operator's token", () => ({ Authorization: `Bearer ${disabledToken}` })],
];

describe('/admin/* without a valid operator credential', () => {
  it('the comparison itself: two unknown paths of the same length answer alike once set aside what always differs', async () => {
    const first = await rawExchange(server.url, 'GET', '/no-such-path-a', {});
    const second = await rawExchange(server.url, 'GET', '/no-such-path-b', {});
    expect(first.startsWith('HTTP/1.1 404 ')).toBe(true);
    expect(normalised(first, '/no-such-path-a')).toBe(normalised(second, '/no-such-path-b'));
  });

  it.each(CREDENTIAL_CASES)('GET /admin/treasury with %s answers as an unknown path', async (_case, headers) => {
    expect(user.key.startsWith('pa_live_')).toBe(true);
    await expectAnsweredAsUnknown(server, 'GET', '/admin/treasury', headers());
  });

  it.each(CREDENTIAL_CASES)('HEAD and POST /admin/treasury with %s answer as an unknown path', async (_case, headers) => {
    await expectAnsweredAsUnknown(server, 'HEAD', '/admin/treasury', headers());
    await expectAnsweredAsUnknown(server, 'POST', '/admin/treasury', headers());
  });

  it.each(CREDENTIAL_CASES)('GET /admin/treasury?x=1 with %s answers as an unknown path', async (_case, headers) => {
    await expectAnsweredAsUnknown(server, 'GET', '/admin/treasury?x=1', headers());
  });

  it("with a body an unknown path would refuse (malformed JSON, another media type), the answer is the unknown path's", async () => {
    const json = { 'Content-Type': 'application/json' };
    await expectAnsweredAsUnknown(server, 'GET', '/admin/treasury', json, '{"unterminated');
    await expectAnsweredAsUnknown(server, 'POST', '/admin/treasury', json, '{"unterminated', 400);
    await expectAnsweredAsUnknown(server, 'GET', '/admin/treasury', { 'Content-Type': 'text/plain' }, 'hello', null);
    await expectAnsweredAsUnknown(server, 'POST', '/admin/treasury', { 'Content-Type': 'text/plain' }, 'hello', null);
    await expectAnsweredAsUnknown(server, 'GET', '/admin/treasury', json, '{"a":1}');
    await expectAnsweredAsUnknown(server, 'GET', '/admin/treasury?q=%00', {}, '', null);
  });

  it.each(CREDENTIAL_CASES)(
    'GET /admin/operators, /admin/audit and /admin/openapi.json with %s answer as an unknown path',
    async (_case, headers) => {
      for (const path of ['/admin/operators', '/admin/audit?limit=1', '/admin/openapi.json'])
        await expectAnsweredAsUnknown(server, 'GET', path, headers());
    },
  );

  it.each(['/admin', '/admin/', '/admin/operators/', '/admin/treasury/', '/admin/treasury/x', '/admin/openapi.yaml'])(
    'the unknown path %s answers as any unknown path, with or without the operator token',
    async (path) => {
      await expectAnsweredAsUnknown(server, 'GET', path, {});
      await expectAnsweredAsUnknown(server, 'GET', path, { Authorization: `Bearer ${OPERATOR_TOKEN}` });
      await expectAnsweredAsUnknown(server, 'GET', path, { Authorization: `Bearer ${user.key}` });
    },
  );

  it('the operator token is accepted (any case of the scheme), and the answer carries the figures', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const raw = await rawExchange(server.url, 'GET', '/admin/treasury', { Authorization: `${scheme} ${OPERATOR_TOKEN}` });
      expect(raw.startsWith('HTTP/1.1 200 '), raw).toBe(true);
    }
    const view = await server.request('GET', '/admin/treasury', { key: OPERATOR_TOKEN });
    expect(view.body.gas.balanceWei).toMatch(/^\d+$/);
    expect(view.body.tokens.map((t: { token: string }) => t.token)).toEqual(['USDC', 'EURC']);
  });

  it('without OPERATOR_TOKEN, /admin/treasury answers as an unknown path whatever is sent', async () => {
    const plain = await startTestServer();
    try {
      for (const [, headers] of CREDENTIAL_CASES) await expectAnsweredAsUnknown(plain, 'GET', '/admin/treasury', headers());
      await expectAnsweredAsUnknown(plain, 'GET', '/admin/treasury', { Authorization: `Bearer ${OPERATOR_TOKEN}` });
      await expectAnsweredAsUnknown(plain, 'GET', '/admin/treasury', { Authorization: 'Bearer ' });
    } finally {
      await plain.close();
    }
  });
});
