// Every error leaves peerpay as an RFC 9457 problem document with a stable `code`. Fastify's own
// errors (validation, malformed JSON, body size, content type) are mapped here too, so no bad input
// can surface as a 500.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../db/database-unavailable.js';
import { AppError, type ErrorCode } from '../../platform/errors.js';
import type { App } from '../types.js';
import { validationProblem } from './validation-messages.js';

const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  malformed_json: 400,
  invalid_signature: 400,
  invalid_amount: 400,
  amount_too_large: 400,
  amount_too_small: 400,
  unsupported_currency: 400,
  unsupported_chain: 400,
  invalid_address: 400,
  invalid_email: 400,
  invalid_field: 400,
  no_default_address: 400,
  self_transfer: 400,
  insufficient_balance: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  card_setup_required: 402,
  card_declined: 402,
  card_authentication_required: 402,
  card_disputed: 402,
  account_in_debt: 403,
  account_frozen: 403,
  destination_sanctioned: 403,
  operator_forbidden: 403,
  payment_required: 402,
  not_found: 404,
  recipient_not_found: 404,
  ach_setup_required: 409,
  already_exists: 409,
  limit_reached: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  link_expired: 410,
  link_used: 410,
  body_too_large: 413,
  unsupported_media_type: 415,
  too_many_attempts: 429,
  rate_limited: 429,
  limit_exceeded: 429,
  processor_unavailable: 503,
  funding_unavailable: 503,
  withdrawal_unavailable: 503,
  screening_unavailable: 503,
  service_unavailable: 503,
  busy: 503,
  not_ready: 503,
  internal_error: 500,
};

const TITLE_OF: Record<ErrorCode, string> = {
  invalid_request: 'Invalid request',
  malformed_json: 'Malformed JSON',
  invalid_signature: 'Invalid signature',
  invalid_amount: 'Invalid amount',
  amount_too_large: 'Amount too large',
  amount_too_small: 'Amount too small',
  unsupported_currency: 'Unsupported currency',
  unsupported_chain: 'Unsupported chain',
  invalid_address: 'Invalid address',
  invalid_email: 'Invalid e-mail address',
  invalid_field: 'Invalid characters in a field',
  no_default_address: 'No default withdrawal address',
  self_transfer: 'Cannot send to yourself',
  insufficient_balance: 'Insufficient balance',
  unauthorized: 'Missing or invalid API key',
  invalid_credentials: 'Incorrect e-mail or password',
  card_setup_required: 'Card setup required',
  card_declined: 'Card declined',
  card_authentication_required: 'Card needs its holder',
  card_disputed: 'Card payment disputed',
  account_in_debt: 'Account in debt',
  account_frozen: 'Account frozen',
  destination_sanctioned: 'Destination sanctioned',
  operator_forbidden: 'Role too low',
  payment_required: 'Payment required',
  not_found: 'Not found',
  recipient_not_found: 'Recipient not found',
  ach_setup_required: 'Bank debit setup required',
  already_exists: 'Already exists',
  limit_reached: 'Limit reached',
  idempotency_key_in_use: 'Idempotency key in use',
  idempotency_key_reused: 'Idempotency key reused',
  link_expired: 'Link expired',
  link_used: 'Link already used',
  body_too_large: 'Request body too large',
  unsupported_media_type: 'Unsupported media type',
  too_many_attempts: 'Too many attempts',
  rate_limited: 'Rate limit exceeded',
  limit_exceeded: 'Limit exceeded',
  processor_unavailable: 'Payment processor unavailable',
  funding_unavailable: 'Funding unavailable',
  withdrawal_unavailable: 'Withdrawals unavailable',
  screening_unavailable: 'Screening unavailable',
  service_unavailable: 'Service unavailable',
  busy: 'Too busy',
  not_ready: 'Not ready',
  internal_error: 'Internal server error',
};

export function statusOf(code: ErrorCode): number {
  return STATUS_OF[code];
}

export function titleOf(code: ErrorCode): string {
  return TITLE_OF[code];
}

/** The problem type URI of a code: https://peerpay.dev/problems/amount-too-small. */
export function problemTypeOf(code: ErrorCode): string {
  return `https://peerpay.dev/problems/${code.replace(/_/g, '-')}`;
}

export function problemBody(request: FastifyRequest, code: ErrorCode, detail: string, extra: Record<string, unknown> = {}) {
  return {
    type: problemTypeOf(code),
    title: TITLE_OF[code],
    status: STATUS_OF[code],
    detail,
    code,
    requestId: request.id,
    ...extra,
  };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(STATUS_OF[error.code])
    .type('application/problem+json')
    .send(problemBody(request, error.code, error.detail, error.extra));
}

/** Fastify's own error codes, mapped to ours. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): AppError | null {
  if (error.validation) {
    const context = error.validationContext;
    const routeSchema = context ? (request.routeOptions.schema as Record<string, unknown> | undefined)?.[context] : undefined;
    const { detail, errors } = validationProblem(error.validation, context, routeSchema);
    return new AppError('invalid_request', detail, { errors });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('body_too_large', 'The request body is larger than this service accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('unsupported_media_type', 'The Content-Type header is not valid.');
  }
  if (error instanceof SyntaxError) return new AppError('malformed_json', 'The request body is not valid JSON.');
  const status = error.statusCode ?? 500;
  if (status === 429) return new AppError('rate_limited', 'Too many requests; retry after the time in Retry-After.');
  if (status >= 400 && status < 500) return new AppError('invalid_request', error.message);
  return null;
}

const DATABASE_UNAVAILABLE = new AppError(
  'service_unavailable',
  'peerpay lost its database connection during this request; nothing was half done. Retry with the same Idempotency-Key.',
  {},
  { 'Retry-After': '1' },
);

export function registerProblemDetails(app: App): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = error instanceof AppError ? error : fromFastifyError(error, request);
    if (appError) return sendProblem(request, reply, appError);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendProblem(request, reply, DATABASE_UNAVAILABLE);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, new AppError('internal_error', 'Something went wrong on our side; retry after a brief wait.'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}

/**
 * Errors Fastify meets before any route runs (a malformed URL, a path parameter past the router's
 * length limit): answered as problems like every other refusal, never with Fastify's own body.
 * A path parameter too long to be any id or token names nothing, so it is a 404.
 */
export function frameworkErrorProblem(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('not_found', 'No such resource: a path parameter is longer than any id or token.')
      : new AppError('invalid_request', 'The request URL is not valid.');
  void sendProblem(request, reply, appError);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, a malformed
 * request line): a problem document written on the socket, then the connection closed.
 */
export function clientErrorProblem(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  // As Node's own handler: nothing to answer on a reset or closed socket, or once a response to a
  // request on this socket has begun (the error is then the connection's, not a new request's).
  const inFlight = (socket as { _httpMessage?: import('node:http').ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  // A request in flight that was received whole is not the one refused: the bytes after it (a
  // pipelined request) are. Its answer, which may have been paid for, goes first; the refusal after.
  if (inFlight?.req?.complete) {
    const refuse = () => clientErrorProblem(error, socket);
    inFlight.once('finish', () => setImmediate(refuse));
    inFlight.once('close', () => {
      if (!inFlight.writableFinished) socket.destroy();
    });
    return;
  }
  const [status, reason, title, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers too large', 'The request headers are larger than this service accepts.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'Invalid request', 'The request could not be parsed as HTTP.'];
  const body = JSON.stringify({ type: 'https://peerpay.dev/problems/invalid-request', title, status, detail, code: 'invalid_request' });
  // An answer to HEAD carries no body (a client would read it as the start of the next answer);
  // the request line is at the start of the bytes the parser refused.
  const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}
