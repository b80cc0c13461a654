// Sends one signed webhook: POST, JSON, the Standard Webhooks headers, redirects never followed
// (a 3xx is a failure), and in live mode only to public addresses, checked in this very
// connection. The whole exchange is bounded: the status and the end of the answer must come
// within `timeoutMs`, the answer is read up to MAX_RESPONSE_BYTES, and whatever ends the exchange
// destroys the socket; the result is handed back only once the socket has closed, so a caller
// that counts sends in flight counts open sockets. A receiver that answers 200 and then trickles
// its body keeps nothing open past the timeout.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ForbiddenDestination, refuseForbiddenPeer, type DestinationGuard } from './destination-guard.js';
import { signWebhook } from './webhook-signature.js';

export interface WebhookMessage {
  url: string;
  secret: string;
  /** The event id: webhook-id. */
  id: string;
  body: string;
  timestampSeconds: number;
}

export interface SendOptions {
  /** The most the exchange may take, from the first byte sent to the answer's end. */
  timeoutMs: number;
  /** Live mode: every address resolved and connected to is checked; null (sandbox) sends anywhere. */
  guard: DestinationGuard | null;
}

/** A success is a 2xx status with no error; `statusCode` is kept when the answer began but did not end well. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
}

/** Only the status matters: an answer is read this far, then the socket is closed. */
export const MAX_RESPONSE_BYTES = 4096;

const USER_AGENT = 'peerpay-webhooks/1';

export async function sendWebhook(message: WebhookMessage, options: SendOptions): Promise<SendResult> {
  const url = new URL(message.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal never goes through the guard's lookup: checked here, before any connection.
  if (options.guard && net.isIP(host) !== 0) {
    try {
      await options.guard.checkHost(host);
    } catch (error) {
      if (error instanceof ForbiddenDestination) return { statusCode: null, error: error.message };
      throw error;
    }
  }
  return exchange(url, message, options);
}

function exchange(url: URL, message: WebhookMessage, options: SendOptions): Promise<SendResult> {
  const client = url.protocol === 'https:' ? https : http;
  const lookup = options.guard ? { lookup: options.guard.lookup } : {};
  return new Promise((resolve) => {
    let outcome: SendResult | null = null;
    let statusCode: number | null = null;
    let answer: http.IncomingMessage | null = null;
    const settle = (result: SendResult) => {
      if (outcome) return;
      outcome = result;
      clearTimeout(timer);
      // Whatever ended the exchange, its socket goes with it.
      request.destroy();
    };
    const request = client.request(url, { method: 'POST', headers: headersOf(message), agent: false, ...lookup }, (response) => {
      answer = response;
      statusCode = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) settle({ statusCode, error: null });
      });
      response.on('end', () => settle({ statusCode, error: null }));
      response.on('error', (error) => settle({ statusCode, error: `the answer broke off: ${error.message.slice(0, 200)}` }));
    });
    if (options.guard) request.on('socket', refuseForbiddenPeer);
    const timer = setTimeout(() => settle(timedOut(statusCode, options.timeoutMs)), options.timeoutMs);
    request.on('error', (error) => settle({ statusCode, error: error.message.slice(0, 200) }));
    request.on('close', () => {
      // A whole answer whose 'end' has not been emitted yet is still a whole answer.
      settle(answer?.complete ? { statusCode, error: null } : { statusCode, error: 'the connection closed before the answer ended' });
      resolve(outcome!);
    });
    request.end(message.body);
  });
}

function timedOut(statusCode: number | null, timeoutMs: number): SendResult {
  if (statusCode === null) return { statusCode, error: `no answer within ${timeoutMs} ms` };
  return { statusCode, error: `answered ${statusCode} but did not finish the answer within ${timeoutMs} ms` };
}

function headersOf(message: WebhookMessage): Record<string, string> {
  return {
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
}
