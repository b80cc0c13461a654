// Requests Node's HTTP parser refuses before any route (headers too large): a problem document,
// and for HEAD the same status with no body, so that an HTTP client can read the answer at all.
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function call(method: string, headers: Record<string, string>): Promise<{ status: number; contentType: string; text: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path: '/health', headers, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type']), text }));
    });
    request.on('error', reject);
    request.end();
  });
}

it('answers headers past the limit with a 431 problem document', async () => {
  const answer = await call('GET', { 'x-large': 'h'.repeat(20_000) });
  expect(answer.status).toBe(431);
  expect(answer.contentType).toBe('application/problem+json');
  expect(JSON.parse(answer.text)).toMatchObject({ status: 431, code: 'invalid_request' });
});

it('answers a HEAD with headers past the limit with a 431 and no body', async () => {
  const answer = await call('HEAD', { 'x-large': 'h'.repeat(20_000) });
  expect(answer.status).toBe(431);
  expect(answer.contentType).toBe('application/problem+json');
  expect(answer.text).toBe('');
});
