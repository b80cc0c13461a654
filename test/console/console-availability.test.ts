// The console answers once at least one operator exists, never with CONSOLE=off, and is not part
// of the public OpenAPI document (DESIGN §18).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { addOperator, OPERATOR_TOKEN } from './support/operators.js';

let on: TestServer;
let off: TestServer;

beforeAll(async () => {
  [on, off] = await Promise.all([startTestServer({ OPERATOR_TOKEN }), startTestServer({ OPERATOR_TOKEN, CONSOLE: 'off' })]);
});

afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

describe('console availability', () => {
  it('answers 404 until the first operator exists, then serves the sign-in page and the stylesheet', async () => {
    expect((await on.request('GET', '/console/sign-in')).status).toBe(404);
    expect((await on.request('GET', '/console/operators')).status).toBe(404);
    await addOperator(on, 'first', 'admin');
    const signIn = await on.request('GET', '/console/sign-in');
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('content-type')).toContain('text/html');
    const css = await on.request('GET', '/console/assets/console.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect((await on.request('GET', '/console/operators')).status).toBe(303);
  });

  it('serves nothing with CONSOLE=off', async () => {
    await addOperator(off, 'first', 'admin');
    for (const path of ['/console/sign-in', '/console/operators', '/console/assets/console.css'])
      expect((await off.request('GET', path)).status).toBe(404);
  });

  it('is not in the public OpenAPI document', async () => {
    const document = await on.request('GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(Object.keys(document.body.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
  });
});
