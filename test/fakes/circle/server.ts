// The HTTP side: one node:http server on loopback answering as api.circle.com does: Bearer API
// key, JSON bodies, {data} answers and {code, message} errors, with the entity secret ciphertext
// checked (and never accepted twice), idempotency keys (the same key and body give the same
// answer; another body under the key is 409) and injected faults around the routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntitySecretCheck } from './entity-secret.js';
import { CircleError, circleErrors } from './errors.js';
import type { ApiFault, ApiFaultPlan } from './faults.js';
import { checkParams } from './params.js';
import type { Route, RouteContext } from './routes.js';

export interface RequestLogEntry {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** What the client was answered; null when the answer was lost. */
  status: number | null;
  replayed: boolean;
  fault: ApiFault | null;
  body: Record<string, unknown> | null;
}

interface Answer {
  status: number;
  body: string;
}

interface Saved extends Answer {
  fingerprint: string;
}

export interface ServerParts {
  apiKey: string;
  routes: readonly Route[];
  context: RouteContext;
  entitySecret: EntitySecretCheck;
  faults: ApiFaultPlan;
  log: RequestLogEntry[];
}

const json = (status: number, value: unknown): Answer => ({ status, body: JSON.stringify(value) });
const errorAnswer = (error: CircleError): Answer => json(error.status, error.body());

export function startServer(parts: ServerParts): Promise<{ server: Server; port: number }> {
  const saved = new Map<string, Saved>();
  const server = createServer((req, res) => {
    handle(parts, saved, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`Circle stand-in failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function handle(parts: ServerParts, saved: Map<string, Saved>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const text = await readBody(req);
  const entry: RequestLogEntry = {
    method,
    path: url.pathname,
    idempotencyKey: null,
    status: null,
    replayed: false,
    fault: null,
    body: null,
  };
  parts.log.push(entry);
  const before = parts.faults.take(method, url.pathname, 'before');
  if (before !== undefined) return injectFault(res, entry, before);
  const authorized = req.headers.authorization === `Bearer ${parts.apiKey}`;
  const answer = await answerApi(parts, saved, { method, url, text, authorized }, entry);
  const after = parts.faults.take(method, url.pathname, 'after');
  if (after !== undefined) return injectFault(res, entry, after);
  entry.status = answer.status;
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(answer.body);
}

function findRoute(routes: readonly Route[], method: string, path: string): { route: Route; id: string | undefined } {
  const matching = routes.map((route) => ({ route, match: route.pattern.exec(path) })).filter(({ match }) => match !== null);
  if (matching.length === 0) throw circleErrors.notFoundPath(method, path);
  const found = matching.find(({ route }) => route.method === method);
  if (found === undefined) throw circleErrors.methodNotAllowed(method, path);
  return { route: found.route, id: found.match![1] === undefined ? undefined : decodeURIComponent(found.match![1]) };
}

function parseBody(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text === '' ? '{}' : text);
  } catch {
    throw circleErrors.parameter('body', 'the body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw circleErrors.parameter('body', 'the body is not a JSON object');
  return body as Record<string, unknown>;
}

interface Request {
  method: string;
  url: URL;
  text: string;
  authorized: boolean;
}

async function answerApi(parts: ServerParts, saved: Map<string, Saved>, request: Request, entry: RequestLogEntry): Promise<Answer> {
  const { method, url, text } = request;
  try {
    if (method !== 'GET' && method !== 'POST') throw circleErrors.methodNotAllowed(method, url.pathname);
    if (!request.authorized) throw circleErrors.unauthorized();
    const { route, id } = findRoute(parts.routes, method, url.pathname);
    const params = method === 'GET' ? queryParams(url) : parseBody(text);
    entry.body = method === 'POST' ? params : null;
    if (method === 'GET' && text !== '') throw circleErrors.parameter('body', 'a GET takes no body');
    checkParams(params, route.params);
    if (method === 'GET') return json(route.status, { data: await route.run(parts.context, params, id) });
    parts.entitySecret.accept(params.entitySecretCiphertext);
    return await idempotent(parts, saved, route, params, entry);
  } catch (error) {
    if (error instanceof CircleError) return errorAnswer(error);
    throw error;
  }
}

function queryParams(url: URL): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) {
    if (name in params) throw circleErrors.parameter(name, `${name} is given twice`);
    params[name] = value;
  }
  return params;
}

/** The request without its ciphertext (fresh on every attempt), in a canonical order. */
function fingerprint(params: Record<string, unknown>): string {
  const { entitySecretCiphertext: _ciphertext, ...rest } = params;
  return JSON.stringify(rest, Object.keys(rest).sort());
}

async function idempotent(
  parts: ServerParts,
  saved: Map<string, Saved>,
  route: Route,
  params: Record<string, unknown>,
  entry: RequestLogEntry,
): Promise<Answer> {
  const key = params.idempotencyKey as string;
  entry.idempotencyKey = key;
  const print = `${route.pattern.source} ${fingerprint(params)}`;
  const earlier = saved.get(key);
  if (earlier !== undefined) {
    if (earlier.fingerprint !== print) return errorAnswer(circleErrors.idempotencyConflict());
    entry.replayed = true;
    return { status: earlier.status, body: earlier.body };
  }
  let answer: Answer;
  try {
    answer = json(route.status, { data: await route.run(parts.context, params, undefined) });
  } catch (error) {
    if (!(error instanceof CircleError)) throw error;
    // A refusal is not kept: the same key may be used again once the request is right.
    return errorAnswer(error);
  }
  saved.set(key, { ...answer, fingerprint: print });
  return answer;
}

function injectFault(res: ServerResponse, entry: RequestLogEntry, fault: ApiFault): void {
  entry.fault = fault;
  // 'timeout': say nothing; the client gives up at its own timeout and close() ends the connection.
  if (fault === 'timeout') return;
  if (fault === 'lost') {
    res.socket?.destroy();
    return;
  }
  const answer = errorAnswer(circleErrors.injected(fault));
  entry.status = answer.status;
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(answer.body);
}
