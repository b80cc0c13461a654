import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startTestServer, type TestServer } from '../helpers/test-server.js';
import { testDatabaseKind } from '../helpers/test-database.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('service endpoints', () => {
  it('GET /health names the mode and the database', async () => {
    const response = await server.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', mode: 'sandbox', database: testDatabaseKind() });
    // Sandbox mode names the embedded chain, which answers as chain 137 with the sandbox USDC.
    expect(response.body.chain).toMatchObject({ id: 137, tokens: { USDC: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' } });
    const rpc = await fetch(response.body.chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect((await rpc.json()).result).toBe('0x89');
  });

  it('every response carries a request id, and problem documents repeat it', async () => {
    const ok = await server.request('GET', '/health');
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    const missing = await server.request('GET', '/no/such/route');
    const problem = expectProblem(missing, 404, 'not_found');
    expect(problem.requestId).toBe(missing.headers.get('x-request-id'));
  });

  it('GET /openapi.json is OpenAPI 3.1 at version 3.0.0 and documents every route with its errors', async () => {
    const response = await server.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('3.0.0');
    expect(doc.components.schemas.Problem).toBeDefined();
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        documented.add(`${method.toUpperCase()} ${path}`);
        expect(operation.summary, `${method} ${path} has a summary`).toBeTruthy();
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path} documents success`,
        ).toBe(true);
        expect(statuses, `${method} ${path} documents server errors`).toContain('500');
        expect(statuses, `${method} ${path} documents 503 for a lost database`).toContain('503');
        expect(statuses, `${method} ${path} documents 400 for a malformed request`).toContain('400');
        // Any operation that reads a body can be sent a malformed, oversized or non-JSON one.
        if (['post', 'put', 'patch'].includes(method))
          expect(statuses, `${method} ${path} documents body refusals`).toEqual(expect.arrayContaining(['400', '413', '415']));
        for (const status of statuses.filter((s) => Number(s) >= 400)) {
          expect(JSON.stringify(operation.responses[status].content)).toContain('#/components/schemas/Problem');
        }
      }
    }
    for (const route of [
      'POST /agent/register',
      'POST /stablecoin/register',
      'GET /agents/check',
      'GET /agents/lookup',
      'POST /account/revoke-key',
      'PATCH /account',
      'POST /stablecoin/wallet',
      'GET /health',
    ]) {
      expect(documented.has(route.replace(/:(\w+)/g, '{$1}')), `${route} is documented`).toBe(true);
    }
    // Public routes say so; the others need the bearer key.
    expect(doc.paths['/agent/register'].post.security).toEqual([]);
    expect(doc.paths['/account/revoke-key'].post.security).toBeUndefined();
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('GET /docs serves an API reference page from local assets', async () => {
    const page = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html.toLowerCase()).toContain('swagger');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']+\.js/);
  });

  it('GET /metrics exposes Prometheus metrics by route pattern', async () => {
    await server.request('GET', '/health');
    const response = await server.request('GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.text).toContain('peerpay_http_request_duration_seconds_count{method="GET",route="/health",status="200"}');
  });

  it('an unknown route or method answers a 404 problem, never a 500', async () => {
    expectProblem(await server.request('DELETE', '/agent/register'), 404, 'not_found');
    expectProblem(await server.request('GET', '/../../etc/passwd'), 404, 'not_found');
  });
});
