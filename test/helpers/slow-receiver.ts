// A hostile webhook receiver on 127.0.0.1 for tests: it answers 200 at once, then either trickles
// its body a byte at a time ('trickle') or floods it without end ('flood'), and never finishes on
// its own. It watches from its side how long each connection stays open and how many are open at
// once (`shared` adds receivers up, for a limit across endpoints).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface OpenCount {
  open: number;
  max: number;
}

export interface SlowConnection {
  openedAt: number;
  /** When the receiver saw the connection go (null while it is open). */
  closedAt: number | null;
}

export interface SlowReceiver {
  url: string;
  connections: SlowConnection[];
  /** Requests under way, from each request's arrival to its connection's end, and the most at once. */
  requests: OpenCount;
  /** Resolves once every connection it accepted has closed, or rejects after `withinMs`. */
  allClosed(withinMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSlowReceiver(options: {
  mode: 'trickle' | 'flood';
  trickleMs?: number;
  shared?: OpenCount;
}): Promise<SlowReceiver> {
  const connections: SlowConnection[] = [];
  const requests: OpenCount = { open: 0, max: 0 };
  const counts = [requests, ...(options.shared ? [options.shared] : [])];
  const server = http.createServer((request, response) => {
    // Counted from the request (not the TCP accept) to the first sign of its end, so that a
    // connection peerpay closed is never still counted when peerpay's next one arrives.
    let counted = true;
    for (const c of counts) c.max = Math.max(c.max, ++c.open);
    const uncount = () => {
      if (!counted) return;
      counted = false;
      for (const c of counts) c.open--;
    };
    for (const event of ['end', 'error', 'close']) request.socket.once(event, uncount);
    request.resume();
    request.on('end', () => answer(response, request.socket, options));
  });
  server.on('connection', (socket: Socket) => {
    const connection: SlowConnection = { openedAt: Date.now(), closedAt: null };
    connections.push(connection);
    socket.on('error', () => {});
    socket.once('close', () => (connection.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    connections,
    requests,
    async allClosed(withinMs) {
      const until = Date.now() + withinMs;
      while (connections.some((c) => c.closedAt === null)) {
        if (Date.now() > until) throw new Error(`${connections.filter((c) => c.closedAt === null).length} connection(s) still open`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(response: http.ServerResponse, socket: Socket, options: { mode: 'trickle' | 'flood'; trickleMs?: number }): void {
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(1 << 30) });
  response.flushHeaders();
  if (options.mode === 'trickle') {
    const timer = setInterval(() => response.write('.'), options.trickleMs ?? 1000);
    socket.once('close', () => clearInterval(timer));
    return;
  }
  const chunk = Buffer.alloc(16 * 1024, 'x');
  const flood = () => {
    while (!socket.destroyed && response.write(chunk));
  };
  response.on('drain', flood);
  flood();
}
