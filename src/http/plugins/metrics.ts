// Prometheus metrics at GET /metrics: process metrics, one histogram of request durations by route
// pattern (never by raw URL, which would carry ids and tokens), and the job and backlog metrics of
// deps.metrics. With METRICS_PORT set, /metrics is served only by a listener of its own
// (metricsRequestHandler, started by main.ts), and the main port answers 404 there.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Histogram, type Registry } from 'prom-client';
import type { App } from '../types.js';

const DURATION_METRIC = 'peerpay_http_request_duration_seconds';

export function registerMetrics(app: App, registry: Registry, options: { serveOnMainPort: boolean }): void {
  // One histogram per registry, also when an app is built twice on the same deps (tests do).
  const existing = registry.getSingleMetric(DURATION_METRIC) as Histogram<'method' | 'route' | 'status'> | undefined;
  const duration =
    existing ??
    new Histogram({
      name: DURATION_METRIC,
      help: 'HTTP request duration by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  if (!options.serveOnMainPort) return;
  app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/** The METRICS_PORT listener's handler: GET (or HEAD) /metrics, and 404 for anything else. */
export function metricsRequestHandler(registry: Registry): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      const body = JSON.stringify({
        type: 'https://peerpay.dev/problems/not-found',
        title: 'Not found',
        status: 404,
        detail: 'This port serves GET /metrics only.',
        code: 'not_found',
      });
      response.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) }).end(body);
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be read\n'),
    );
  };
}
