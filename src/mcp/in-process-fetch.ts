// A fetch that answers through app.inject: the MCP server's peerpay client calls the service's own
// HTTP API in-process, with the caller's key, so that a tool call gets exactly what a client over
// the network would (validation, idempotency, rate limits, problem documents), with no socket.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';

export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>;

export function inProcessFetch(inject: Inject): typeof fetch {
  return async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
      throw new TypeError('in-process fetch sends string bodies only');
    const response = await inject({
      // fetch's method is any string; inject's type names the HTTP methods (the server refuses others).
      method: (init.method ?? 'GET') as InjectOptions['method'],
      url: url.pathname + url.search,
      headers,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: answer });
  };
}
