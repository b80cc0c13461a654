// REDIS_URL set, but Redis away, or accepting connections and never answering: nothing changes for
// the client but the limits' scope (back to per process), with one warning and a metric. (Limits
// shared through a real Redis by three processes: test/chaos/fleet.test.ts, which CI runs with Redis.)
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const metric = async (server: TestServer, name: string) => {
  const text = (await server.request('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

describe('a Redis that does not answer', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  const servers: TestServer[] = [];
  beforeAll(async () => {
    // Accepts connections and never answers: every command runs into the client's timeout.
    silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    for (const url of [`redis://127.0.0.1:${closedPort}`, `redis://127.0.0.1:${silentPort}`]) {
      servers.push(await startTestServer({ REDIS_URL: url, RATE_LIMIT_CHECK_PER_MINUTE: '3' }));
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it.each([
    ['is away', 0],
    ['accepts connections and never answers', 1],
  ])('that %s: limits fall back to memory, with a warning and a metric, never a 5xx', async (_what, index) => {
    const server = servers[index]!;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await server.request('GET', '/agents/check?handle=PA-ZZZZZZZZ')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await server.request('GET', '/health')).status).toBe(200);
    expect(await metric(server, 'peerpay_rate_limit_redis_up')).toBe(0);
    expect(await metric(server, 'peerpay_rate_limit_redis_fallbacks_total')).toBeGreaterThanOrEqual(5);
    const warnings = server.logs.filter((line) => line.includes('Redis (REDIS_URL) does not answer'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain('redis://');
  });
});
