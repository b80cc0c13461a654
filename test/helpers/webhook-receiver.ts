// A webhook receiver on 127.0.0.1 for tests: it verifies every request with the standardwebhooks
// package (the reference implementation of the Standard Webhooks specification) and keeps what it
// received; `answers` scripts its status codes (then 200).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  /** The verified payload: {type, timestamp, data}. */
  payload: { type: string; timestamp: string; data: { id: string; type: string; createdAt: string; data: Record<string, any> } };
  headers: http.IncomingHttpHeaders;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Requests whose signature did not verify (must stay empty). */
  refused: string[];
  /** Every request, including those answered with an error status. */
  requests: number;
  /** The secret to verify with; with `path`, only for requests to that path (one receiver for many endpoints). */
  setSecret(secret: string, path?: string): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  options: { answers?: number[]; path?: string; delayMs?: number } = {},
): Promise<WebhookReceiver> {
  const answers = [...(options.answers ?? [])];
  let verifier: Webhook | null = null;
  const verifiers = new Map<string, Webhook>();
  const received: ReceivedWebhook[] = [];
  const refused: string[] = [];
  let requests = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => setTimeout(answer, options.delayMs ?? 0));
    const answer = () => {
      requests++;
      const status = answers.shift() ?? 200;
      if (status < 200 || status >= 300) {
        response.writeHead(status).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const chosen = verifiers.get(new URL(request.url ?? '/', 'http://receiver').pathname) ?? verifier;
        if (!chosen) throw new Error('no secret yet');
        const payload = chosen.verify(body, request.headers as Record<string, string>) as ReceivedWebhook['payload'];
        received.push({ id: String(request.headers['webhook-id']), payload, headers: request.headers });
        response.writeHead(204).end();
      } catch (error) {
        refused.push(String(error));
        response.writeHead(400).end();
      }
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hooks'}`,
    received,
    refused,
    get requests() {
      return requests;
    },
    setSecret(secret, path) {
      if (path === undefined) verifier = new Webhook(secret);
      else verifiers.set(path, new Webhook(secret));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
