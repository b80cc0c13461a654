// REDIS_URL: the rate limits of several processes are counted once, in Redis, under the run's own
// key prefix; a Redis that is away, or that accepts connections and never answers, changes nothing
// for the client but the limits' scope (back to per process), with a warning and a metric.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const metric = async (server: TestServer, name: string) => {
  const text = (await server.request('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

describe('two processes on one Redis', () => {
  const prefix = `peerpay-test:${randomUUID()}:`;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_CHECK_PER_MINUTE: '5', RATE_LIMIT_REGISTER_PER_MINUTE: '2' };
    servers.push(await startTestServer(env), await startTestServer(env));
  });
  afterAll(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    for (const server of servers) await server.close();
  });

  it('give a client its budget once across both, not once per process', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await servers[i % 2]!.request('GET', '/agents/check?handle=PA-ZZZZZZZZ')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });

  it('keep each group of routes apart, every key under REDIS_KEY_PREFIX', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await servers[i % 2]!.request('POST', '/agent/register', {
        body: { email: `shared-${i}-${randomUUID()}@example.com`, password: 'password123', name: 'S' },
      });
      statuses.push(response.status);
    }
    // Registration's budget (2) is its own: the checks above did not use it up.
    expect(statuses).toEqual([201, 201, 429]);
    const redis = new Redis(REDIS_URL);
    const keys = (await redis.keys(`${prefix}*`)).sort();
    redis.disconnect();
    expect(keys).toEqual([`${prefix}ratelimit:check:ip:127.0.0.1`, `${prefix}ratelimit:register:ip:127.0.0.1`]);
    expect(await metric(servers[0]!, 'peerpay_rate_limit_redis_up')).toBe(1);
    expect(await metric(servers[0]!, 'peerpay_rate_limit_redis_fallbacks_total')).toBe(0);
  });
});

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
