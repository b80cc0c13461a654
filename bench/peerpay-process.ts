// peerpay in-process for the benchmarks, on a real port, with the settings every measurement uses.
import fs from 'node:fs';
import { loadConfig } from '../src/config.js';
import { createDeps, type Deps } from '../src/deps.js';
import { buildApp } from '../src/app.js';

export interface Peerpay {
  deps: Deps;
  url: string;
  /** Stops taking requests and waits until every request it took has been answered; the database stays open. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** peerpay in-process on a real port; `counter` counts the 2xx answers to transfer requests it sends. */
export async function startPeerpay(dataDir: string, dbUrl: string | undefined, counter: { server2xxTransfers: number }): Promise<Peerpay> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    MASTER_SEED: '0x' + 'be'.repeat(32),
    LOG_LEVEL: 'info',
    PASSWORD_HASH_COST_LOG2: '10',
    RATE_LIMIT_REGISTER_PER_MINUTE: '1000000',
    RATE_LIMIT_CHECK_PER_MINUTE: '1000000',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
    JOB_INTERVAL_MS: '3600000',
    // Group-commit settings to try other values with (GROUP_COMMIT_MAX_BATCH and the others).
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('GROUP_COMMIT_'))),
  });
  const deps = await createDeps(config);
  // Request logs are written (as in production, level info) but to /dev/null, not the terminal.
  const app = await buildApp(deps, { logStream: fs.createWriteStream('/dev/null') });
  // The server's own count of 2xx answers to transfer requests, taken when the answer is handed to
  // the socket (onSend), not when it is delivered (onResponse): when autocannon stops at the end of
  // a measurement it closes its connections with requests in flight, whose answers then never finish.
  app.addHook('onSend', async (request, reply) => {
    const route = request.routeOptions.url;
    if (
      request.method === 'POST' &&
      (route === '/agent/transfer' || route === '/transfers') &&
      reply.statusCode >= 200 &&
      reply.statusCode < 300
    ) {
      counter.server2xxTransfers++;
    }
  });
  // app.close() returns once the sockets are gone, and autocannon drops its sockets at the end of
  // a measurement with requests in flight: their handlers go on (a transfer waiting for its
  // batch's commit) and answer later. drain() waits for those answers too, so that the checks
  // count every transfer and every 2xx answer. A set, not a count: a hook registered earlier may
  // answer a request before this onRequest runs.
  const inFlight = new Set<string>();
  let lastAnswerAt = Date.now();
  app.addHook('onRequest', async (request) => {
    inFlight.add(request.id);
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    inFlight.delete(request.id);
    lastAnswerAt = Date.now();
    return payload;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    deps,
    url: `http://127.0.0.1:${address.port}`,
    async drain() {
      await app.close();
      // Some requests whose client left never reach onSend (5 in one trial run), so
      // the wait ends once no answer has been sent for 2 s, a long time for a batch to commit.
      while (inFlight.size > 0 && Date.now() - lastAnswerAt < 2_000) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async close() {
      await app.close();
      await deps.close();
    },
  };
}
