// Stripe answers every failure with `{error: {...}}` and an HTTP status that stripe-node turns into an
// error class (400/404 → StripeInvalidRequestError, or StripeIdempotencyError for type
// idempotency_error; 401 → StripeAuthenticationError; 402 → StripeCardError; 429 →
// StripeRateLimitError; 5xx → StripeAPIError). Handlers throw StripeApiError; the server renders it.

export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error' | 'authentication_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
  charge?: string;
  request_log_url?: string;
}

export class StripeApiError extends Error {
  /**
   * Whether an idempotent request that ended in this error keeps it as its saved result. Stripe saves
   * results only once an endpoint has started executing; refusals of the parameters themselves are not
   * saved, so the same key may be retried with corrected parameters.
   */
  saveable: boolean;

  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    saveable = true,
  ) {
    super(body.message);
    this.saveable = saveable;
  }
}

const DOCS = 'https://stripe.com/docs/error-codes';

function docUrl(code: string | undefined): string | undefined {
  return code === undefined ? undefined : `${DOCS}/${code.replace(/_/g, '-')}`;
}

export function invalidRequest(message: string, opts: { code?: string; param?: string; status?: number } = {}): StripeApiError {
  const body: StripeErrorBody = { type: 'invalid_request_error', message };
  if (opts.code !== undefined) {
    body.code = opts.code;
    body.doc_url = docUrl(opts.code);
  }
  if (opts.param !== undefined) body.param = opts.param;
  return new StripeApiError(opts.status ?? 400, body);
}

/** A refusal of the parameters as sent: never saved as an idempotent result. */
export function parameterError(message: string, opts: { code?: string; param?: string } = {}): StripeApiError {
  const error = invalidRequest(message, opts);
  error.saveable = false;
  return error;
}

/** `No such customer: 'cus_x'` — 404 for the object named in the URL, 400 for one named in a parameter. */
export function noSuch(kind: string, id: string, param: string, status: 400 | 404): StripeApiError {
  return invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param, status });
}

export function cardError(
  message: string,
  code: string,
  declineCode: string | undefined,
  extra: Partial<StripeErrorBody> = {},
): StripeApiError {
  const body: StripeErrorBody = { type: 'card_error', message, code, doc_url: docUrl(code), ...extra };
  if (declineCode !== undefined) body.decline_code = declineCode;
  return new StripeApiError(402, body);
}

export function idempotencyError(message: string, status = 400): StripeApiError {
  return new StripeApiError(status, { type: 'idempotency_error', message }, false);
}

export function apiError(status = 500): StripeApiError {
  return new StripeApiError(status, { type: 'api_error', message: 'An unknown error occurred (injected by the Stripe stand-in).' }, false);
}

export function rateLimited(): StripeApiError {
  return new StripeApiError(
    429,
    {
      type: 'invalid_request_error',
      code: 'rate_limit',
      message: 'Request rate limit exceeded. (Injected by the Stripe stand-in.)',
      doc_url: docUrl('rate_limit'),
    },
    false,
  );
}

export function renderError(error: StripeApiError): { error: StripeErrorBody } {
  return { error: error.body };
}
