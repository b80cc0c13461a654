// A request that fails because the database connection was lost is answered as the outage it is:
// 503 service_unavailable with Retry-After, a problem document, never 500 internal_error.
import { expect, it } from 'vitest';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerProblemDetails } from '../../src/http/plugins/problem-details.js';

async function answerTo(error: Error) {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  registerProblemDetails(app);
  app.get('/fails', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return response;
}

it.each([
  ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
  ['a terminated backend', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
  ['a connection gone between queries', new Error('Client has encountered a connection error and is not queryable')],
  ['no connection in time', new Error('timeout exceeded when trying to connect')],
])('%s is 503 service_unavailable with Retry-After', async (_name, error) => {
  const response = await answerTo(error);
  expect(response.statusCode).toBe(503);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['retry-after']).toBe('1');
  expect(response.json()).toMatchObject({ status: 503, code: 'service_unavailable', title: 'Service unavailable' });
});

it('any other failure stays 500 internal_error, without its message', async () => {
  const response = await answerTo(new Error('invariant violated: secret detail'));
  expect(response.statusCode).toBe(500);
  expect(response.json().code).toBe('internal_error');
  expect(response.body).not.toContain('secret detail');
});
