// The HTTP side: one node:http server on loopback answering the way api.stripe.com answers — a
// Request-Id on every answer, Bearer (or Basic) secret-key auth, form-encoded parameters, JSON bodies
// and Stripe's error statuses — with idempotent replay and injected faults wrapped around the routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, invalidRequest, rateLimited, renderError, StripeApiError } from './errors.js';
import type { Fault, FaultPlan } from './faults.js';
import { canonical, type FormHash, FormShapeError, parseForm } from './form-params.js';
import type { IdempotencyStore } from './idempotency.js';
import { randomToken } from './ids.js';
import { handlePage, type PageControls } from './pages.js';
import { matchRoute, type Route } from './routes.js';
import type { Context, RequestRef } from './store.js';

export interface RequestLogEntry {
  method: string;
  /** The path without its query string. */
  path: string;
  requestId: string;
  idempotencyKey: string | null;
  /** What the client was answered; null when it got no answer (a 'timeout' or 'reset' fault). */
  status: number | null;
  replayed: boolean;
  fault: Fault | null;
  params: FormHash;
}

export interface ServerParts {
  secretKeys: readonly string[];
  apiVersion: string;
  routes: readonly Route[];
  idempotency: IdempotencyStore;
  faults: FaultPlan;
  log: RequestLogEntry[];
  /** A context whose events name this request (or none, for pages). */
  context(request: RequestRef | null): Context;
  pageControls: PageControls;
}

const MAX_BODY = 1024 * 1024;

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return { status, body: `${JSON.stringify(value, null, 2)}\n`, headers };
}

function errorAnswer(error: StripeApiError): Answer {
  return json(error.status, renderError(error));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function mask(key: string): string {
  return key.length <= 12 ? '****' : `${key.slice(0, 8)}${'*'.repeat(Math.max(4, key.length - 12))}${key.slice(-4)}`;
}

/** The secret key the request authenticates with, or the 401 Stripe would give. */
function authenticate(req: IncomingMessage, secretKeys: readonly string[]): string | StripeApiError {
  const authorization = header(req, 'authorization');
  let key: string | undefined;
  if (authorization?.startsWith('Bearer ')) key = authorization.slice('Bearer '.length).trim();
  else if (authorization?.startsWith('Basic '))
    key = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')[0];
  // Stripe answers a bad key with status 401 and type invalid_request_error; stripe-node raises
  // StripeAuthenticationError for the status.
  if (key === undefined || key === '') {
    return invalidRequest(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      { status: 401 },
    );
  }
  if (!secretKeys.includes(key)) return invalidRequest(`Invalid API Key provided: ${mask(key)}`, { status: 401 });
  return key;
}

export function startServer(parts: ServerParts, host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    handle(parts, req, res).catch((error: unknown) => {
      // A bug in the stand-in: answer 500 rather than hang the test that hit it.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`Stripe stand-in failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

async function handle(parts: ServerParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = `req_${randomToken(14)}`;
  res.setHeader('Request-Id', requestId);
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const path = url.pathname;
  let body: string;
  try {
    body = await readBody(req);
  } catch {
    return send(res, errorAnswer(invalidRequest('The request body is too large.')));
  }

  if (!path.startsWith('/v1/')) {
    if (handlePage(req, res, path, body, parts.context(null), parts.pageControls)) return;
    return send(res, errorAnswer(invalidRequest(`Unrecognized request URL (${method}: ${path}).`, { status: 404 })));
  }

  const idempotencyKey = method === 'POST' ? (header(req, 'idempotency-key') ?? null) : null;
  const entry: RequestLogEntry = { method, path, requestId, idempotencyKey, status: null, replayed: false, fault: null, params: {} };
  parts.log.push(entry);
  res.setHeader('Stripe-Version', header(req, 'stripe-version') ?? parts.apiVersion);
  if (idempotencyKey !== null) res.setHeader('Idempotency-Key', idempotencyKey);

  const before = parts.faults.take(method, path, 'before');
  if (before !== undefined) return injectFault(res, entry, before);

  const answer = answerApi(parts, req, method, path, url, body, requestId, idempotencyKey, entry);
  const after = parts.faults.take(method, path, 'after');
  if (after !== undefined) return injectFault(res, entry, after);
  entry.status = answer.status;
  send(res, answer);
}

function answerApi(
  parts: ServerParts,
  req: IncomingMessage,
  method: string,
  path: string,
  url: URL,
  body: string,
  requestId: string,
  idempotencyKey: string | null,
  entry: RequestLogEntry,
): Answer {
  const secretKey = authenticate(req, parts.secretKeys);
  if (secretKey instanceof StripeApiError) return errorAnswer(secretKey);

  const matched = matchRoute(parts.routes, method, path);
  if (matched === undefined) {
    return errorAnswer(
      invalidRequest(
        `Unrecognized request URL (${method}: ${path}). The Stripe stand-in serves only the calls peerpay makes (DESIGN §11).`,
        { status: 404 },
      ),
    );
  }

  let params: FormHash;
  try {
    params = parseForm(method === 'GET' ? url.search.slice(1) : body);
  } catch (error) {
    if (error instanceof FormShapeError) return errorAnswer(invalidRequest(error.message, { param: error.param }));
    throw error;
  }
  entry.params = params;

  if (idempotencyKey !== null) {
    const found = parts.idempotency.lookup(secretKey, idempotencyKey, method, path, canonical(params));
    if (found.kind === 'refused') return errorAnswer(found.error);
    if (found.kind === 'replay') {
      entry.replayed = true;
      return {
        status: found.saved.status,
        body: found.saved.body,
        headers: { 'Idempotent-Replayed': 'true', 'Original-Request': found.saved.requestId },
      };
    }
  }

  const ctx = parts.context({ id: requestId, idempotency_key: idempotencyKey });
  let run: () => object;
  try {
    run = matched.route.prepare(params, matched.id, ctx);
  } catch (error) {
    // Parameters refused before the endpoint ran: nothing saved under the key.
    if (error instanceof StripeApiError) return errorAnswer(error);
    throw error;
  }

  if (idempotencyKey !== null) parts.idempotency.begin(secretKey, idempotencyKey);
  let answer: Answer;
  let saveable = true;
  try {
    answer = json(200, run());
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    answer = errorAnswer(error);
    saveable = error.saveable;
  } finally {
    if (idempotencyKey !== null) parts.idempotency.end(secretKey, idempotencyKey);
  }
  if (idempotencyKey !== null && saveable) {
    parts.idempotency.save(secretKey, idempotencyKey, {
      method,
      path,
      fingerprint: canonical(params),
      status: answer.status,
      body: answer.body,
      requestId,
    });
  }
  return answer;
}

function injectFault(res: ServerResponse, entry: RequestLogEntry, fault: Fault): void {
  entry.fault = fault;
  if (fault === 'timeout') {
    // Say nothing; the client gives up at its own timeout. close() ends the connection.
    return;
  }
  if (fault === 'reset') {
    res.socket?.destroy();
    return;
  }
  const answer = errorAnswer(fault === 429 ? rateLimited() : apiError(fault));
  entry.status = answer.status;
  send(res, answer);
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body);
}
