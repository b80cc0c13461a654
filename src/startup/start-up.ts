// What main.ts checks before it writes anything to DATA_DIR or opens a database: that the embedded
// chain can run on this platform, and that its ports are free. A port is not probed (a probe races
// with whatever binds it next): it is bound here, for good, by the HTTP server that serves it once
// the service is ready; until then that server answers 503. A refusal is a StartUpError whose
// message is the one line main.ts prints.
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import { AnvilBinaryError, resolveAnvilBinary } from '../adapters/chain/anvil-binary.js';

export class StartUpError extends Error {
  override name = 'StartUpError';
}

/** Sandbox mode without CHAIN_RPC_URL runs anvil from an npm package built for a few platforms only. */
export function checkEmbeddedChain(
  config: Pick<Config, 'chainRpcUrl'>,
  where: { platform: string; arch: string } = { platform: process.platform, arch: process.arch },
): void {
  if (config.chainRpcUrl) return;
  try {
    resolveAnvilBinary(where.platform, where.arch);
  } catch (error) {
    if (!(error instanceof AnvilBinaryError)) throw error;
    const hint = 'set CHAIN_RPC_URL (with USDC_ADDRESS and EURC_ADDRESS) to the JSON-RPC URL of an EVM node instead';
    throw new StartUpError(
      error.kind === 'unsupported'
        ? `peerpay: the embedded chain is not available on ${where.platform}-${where.arch}; ${hint}`
        : `peerpay: the embedded chain is not available on ${where.platform}-${where.arch} (${error.message}); ${hint}`,
    );
  }
}

export interface Listener {
  readonly server: http.Server;
  readonly port: number;
  /** Hands every request to `handler` from now on; until then each was answered 503. */
  serve(handler: RequestListener): void;
  /** Stops accepting connections, lets requests under way finish, closes idle connections. */
  close(): Promise<void>;
}

const STARTING_BODY = JSON.stringify({
  type: 'https://peerpay.dev/problems/service-unavailable',
  title: 'Service unavailable',
  status: 503,
  detail: 'peerpay is starting; retry in a moment.',
  code: 'service_unavailable',
});

function answerStarting(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(STARTING_BODY),
    'retry-after': '1',
    connection: 'close',
  });
  response.end(STARTING_BODY);
}

/** Binds `port` on `host` now; a port in use (or not allowed) is a StartUpError naming `setting`. */
export async function bindListener(options: { port: number; host: string; setting: 'PORT' | 'METRICS_PORT' }): Promise<Listener> {
  let handler: RequestListener = answerStarting;
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.removeListener('error', reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    const { port, setting } = options;
    if (error.code === 'EADDRINUSE')
      throw new StartUpError(`peerpay: port ${port} is in use; set ${setting} to a free port or stop what listens on it`);
    if (error.code === 'EACCES')
      throw new StartUpError(`peerpay: port ${port} may not be opened by this user; set ${setting} to a port above 1023`);
    if (error.code === 'EADDRNOTAVAIL')
      throw new StartUpError(`peerpay: HOST ${options.host} is not an address of this machine; set HOST to one that is`);
    throw error;
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(next) {
      handler = next;
    },
    close() {
      return new Promise<void>((resolve) => {
        // Requests under way finish; connections idle now, or once their request ends, are closed.
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        idle.unref();
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
