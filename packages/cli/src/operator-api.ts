// The operator API's operator routes (DESIGN §17), for `peerpay operator …`. /admin is not in the
// public OpenAPI document the SDK is generated from (it has its own, behind an operator token), so
// the few calls the command makes are typed here.
export type OperatorRole = 'viewer' | 'support' | 'admin';
export const OPERATOR_ROLES: readonly OperatorRole[] = ['viewer', 'support', 'admin'];

export interface Operator {
  id: string;
  name: string;
  role: OperatorRole;
  createdAt: string;
  /** When it was disabled; absent or null while it is active. */
  disabledAt?: string | null;
}

export interface CreatedOperator {
  operator: Operator;
  /** The operator's API token (po_…): answered once, stored only hashed by the service. */
  token: string;
  /** A one-time link to enrol in the console, valid 24 hours. */
  enrolmentUrl: string;
}

/** A refusal of /admin: the status, and the problem's code and detail when it sent one. */
export class OperatorApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${detail} (${code})`);
  }
}

export interface OperatorApi {
  listOperators(): Promise<{ operators: Operator[] }>;
  createOperator(input: { name: string; role: OperatorRole; note: string }): Promise<CreatedOperator>;
  disableOperator(id: string, note: string): Promise<unknown>;
}

export function operatorApi(options: { baseUrl: string; token: string; fetch?: typeof fetch }): OperatorApi {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;

  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'application/json, application/problem+json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new OperatorApiError(
        0,
        'network_error',
        `No answer from ${baseUrl}: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.ok) return parsed as T;
    const problem = (parsed ?? {}) as { code?: unknown; detail?: unknown };
    throw new OperatorApiError(
      response.status,
      typeof problem.code === 'string' ? problem.code : 'unexpected_response',
      typeof problem.detail === 'string' ? problem.detail : `HTTP ${response.status}`,
    );
  }

  return {
    listOperators: () => request('GET', '/admin/operators'),
    createOperator: (input) => request('POST', '/admin/operators', input),
    disableOperator: (id, note) => request('POST', `/admin/operators/${encodeURIComponent(id)}/disable`, { note }),
  };
}
