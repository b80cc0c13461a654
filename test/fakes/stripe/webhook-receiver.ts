// A minimal webhook endpoint for tests of the stand-in itself (peerpay's tests point the stand-in at
// peerpay instead): it keeps each delivery's raw body and headers and answers with whatever status
// the test has queued (200 when none).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  rawBody: string;
  headers: IncomingHttpHeaders;
  signature: string | undefined;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The next deliveries are answered with these statuses, in order. */
  answerNext(...statuses: number[]): void;
  /** Forgets what was received and any statuses still queued. */
  reset(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const queued: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = queued.shift() ?? 200;
      const signature = req.headers['stripe-signature'];
      received.push({
        rawBody: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
        signature: Array.isArray(signature) ? signature[0] : signature,
        status,
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    received,
    answerNext: (...statuses) => queued.push(...statuses),
    reset: () => {
      received.length = 0;
      queued.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
