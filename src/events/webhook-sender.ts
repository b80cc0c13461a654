// Sends one signed webhook: POST, JSON, the Standard Webhooks headers, at most `timeoutMs` for the
// answer's status, redirects never followed (a 3xx is a failure), and in live mode only to the
// public address the guard checked in this very connection.
import http from 'node:http';
import https from 'node:https';
import { guardedLookup } from './destination-guard.js';
import { signWebhook } from './webhook-signature.js';

export interface WebhookMessage {
  url: string;
  secret: string;
  /** The event id: webhook-id. */
  id: string;
  body: string;
  timestampSeconds: number;
}

export type SendResult = { statusCode: number; error: null } | { statusCode: null; error: string };

const USER_AGENT = 'peerpay-webhooks/1';

export function sendWebhook(message: WebhookMessage, options: { timeoutMs: number; guard: boolean }): Promise<SendResult> {
  const url = new URL(message.url);
  const client = url.protocol === 'https:' ? https : http;
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(message.body)),
    'user-agent': USER_AGENT,
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestampSeconds),
    'webhook-signature': signWebhook({
      secret: message.secret,
      id: message.id,
      timestampSeconds: message.timestampSeconds,
      body: message.body,
    }),
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      { method: 'POST', headers, agent: false, ...(options.guard ? { lookup: guardedLookup } : {}) },
      (response) => {
        // Only the status matters; the body is read and dropped, so the socket closes cleanly.
        response.resume();
        finish({ statusCode: response.statusCode ?? 0, error: null });
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `no answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, error: error.message.slice(0, 200) }));
    request.end(message.body);
  });
}
