// A fault-injecting TCP proxy between peerpay and a dependency (the chain's RPC, PostgreSQL):
// it forwards, or swallows traffic without answering (a hung dependency), or refuses connections
// (a dead one), or answers HTTP 503 or a JSON-RPC error (an overloaded RPC node), and can cut every
// open connection at once, now or after a given number of further bytes (mid-conversation).
import net from 'node:net';

export type ProxyMode = 'forward' | 'blackhole' | 'refuse' | 'http503' | 'rpcError';

export interface TcpProxy {
  readonly port: number;
  readonly url: (scheme: string) => string;
  mode: ProxyMode;
  /** Destroys every open connection (both sides) with a TCP reset, as a network failure would. Returns how many. */
  resetAll(): number;
  /**
   * Resets every open connection once `bytes` more bytes have passed through the proxy (either
   * direction, all connections): the cut lands inside whatever conversation is under way then.
   * The bytes that arrive in the chunk that crosses the limit are dropped, not forwarded.
   */
  resetAfterBytes(bytes: number): Promise<number>;
  /** Disarms a pending resetAfterBytes (its promise resolves with 0). */
  disarm(): void;
  /** Connections cut so far by resetAll() and resetAfterBytes(). */
  readonly resets: number;
  /** Bytes forwarded so far, both directions. */
  readonly bytes: number;
  close(): Promise<void>;
}

/** A JSON-RPC 2.0 error answer to every call in the request body (one call or a batch), HTTP 200. */
function jsonRpcErrorResponse(request: string): string {
  const body = request.slice(request.indexOf('\r\n\r\n') + 4);
  const error = { code: -32603, message: 'internal error: upstream unavailable' };
  let payload: unknown = { jsonrpc: '2.0', id: null, error };
  try {
    const parsed = JSON.parse(body) as { id?: unknown } | { id?: unknown }[];
    payload = Array.isArray(parsed)
      ? parsed.map((call) => ({ jsonrpc: '2.0', id: call.id ?? null, error }))
      : { jsonrpc: '2.0', id: parsed.id ?? null, error };
  } catch {
    // a body split over several packets: the id-less error still fails the call
  }
  const text = JSON.stringify(payload);
  return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let resets = 0;
  let bytes = 0;
  let trip: { at: number; resolve: (n: number) => void } | null = null;
  // Assigned once listening; connections arrive only after that.
  // eslint-disable-next-line prefer-const -- read by the server's handler, which is created first
  let proxy: TcpProxy;

  function resetAll(): number {
    let n = 0;
    for (const socket of open) {
      socket.resetAndDestroy();
      n++;
    }
    resets += n;
    return n;
  }

  /** Counts a chunk on its way; false when it crossed an armed limit (everything was cut instead). */
  function pass(chunk: Buffer): boolean {
    bytes += chunk.length;
    if (trip && bytes >= trip.at) {
      const { resolve } = trip;
      trip = null;
      resolve(resetAll());
      return false;
    }
    return true;
  }

  function pipe(from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (!pass(chunk) || to.destroyed) return;
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
    from.on('end', () => to.end());
  }

  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    switch (proxy.mode) {
      case 'refuse':
        client.resetAndDestroy();
        return;
      case 'blackhole':
        client.on('data', () => undefined);
        return;
      case 'http503':
        client.once('data', () => {
          const body = 'upstream unavailable';
          client.end(
            `HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          );
        });
        return;
      case 'rpcError':
        client.once('data', (chunk: Buffer) => client.end(jsonRpcErrorResponse(chunk.toString('utf8'))));
        return;
      case 'forward': {
        const upstream = net.connect(target.port, target.host);
        open.add(upstream);
        upstream.on('close', () => {
          open.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        pipe(client, upstream);
        pipe(upstream, client);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  // Built with live getters (Object.assign would copy resets and bytes once, as numbers).
  proxy = {
    mode: 'forward',
    port,
    url: (scheme: string) => `${scheme}://127.0.0.1:${port}`,
    resetAll,
    resetAfterBytes(more: number) {
      trip?.resolve(0);
      return new Promise<number>((resolve) => {
        trip = { at: bytes + Math.max(1, more), resolve };
      });
    },
    disarm() {
      trip?.resolve(0);
      trip = null;
    },
    get resets() {
      return resets;
    },
    get bytes() {
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        trip?.resolve(0);
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
