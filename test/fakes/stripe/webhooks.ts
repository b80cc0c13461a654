// Stripe events and their delivery. Each state change becomes an event whose JSON body is fixed when
// it is made (Stripe re-sends the same bytes on every attempt); each delivery signs that body afresh
// as Stripe does: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
//
// In 'auto' mode an event is posted to the webhook URL right after the change (after the current
// turn of the event loop, so usually after the API answer is written — but, as on Stripe, a receiver
// may still see the event before the caller has handled that answer); a non-2xx answer or a network
// error is recorded and retried a bounded number of times. In 'manual' mode events wait until the
// test delivers them: one, all, in reverse, twice, late, or never.
import { createHmac } from 'node:crypto';
import { newId } from './ids.js';
import { type Clock, type EventType, type RequestRef, snapshot, unixSeconds } from './store.js';

export type WebhookMode = 'auto' | 'manual';

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: RequestRef;
  type: EventType;
  data: { object: object; previous_attributes?: Record<string, unknown> };
}

export interface DeliveryAttempt {
  eventId: string;
  type: EventType;
  url: string;
  /** When the attempt was made (clock milliseconds). */
  at: number;
  /** The receiver's HTTP status; null when the request itself failed. */
  status: number | null;
  ok: boolean;
  error: string | null;
  signature: string | null;
  responseBody: string;
  /** 'auto' for deliveries the stand-in made by itself, 'manual' for ones a test asked for. */
  by: WebhookMode;
}

export interface DeliverOptions {
  /** Deliver this many times in a row (e.g. 2 for a duplicate); 1 when absent. */
  times?: number;
  /** Sign with this secret instead of the configured one (a wrong secret, for negative tests). */
  signWith?: string;
  /** Sign with this unix-seconds timestamp instead of now (an old one, for negative tests). */
  timestamp?: number;
  /** Send exactly this Stripe-Signature header (or none at all, with null) instead of signing. */
  signature?: string | null;
}

export interface WebhookSettings {
  secret: string;
  url: string | null;
  mode: WebhookMode;
  apiVersion: string;
  clock: Clock;
  /** Auto mode: further attempts after a failed one. */
  retries: number;
  retryDelayMs: number;
  timeoutMs: number;
}

interface Recorded {
  event: StripeEvent;
  payload: string;
  delivered: boolean;
}

export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class Webhooks {
  private readonly recorded: Recorded[] = [];
  private readonly attemptLog: DeliveryAttempt[] = [];
  /** Auto deliveries run one after another, in the order the events were made. */
  private chain: Promise<void> = Promise.resolve();
  private outstanding = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly settings: WebhookSettings) {}

  setUrl(url: string | null): void {
    this.settings.url = url;
  }

  /** Switching mode affects events made from then on; events already waiting stay waiting. */
  setMode(mode: WebhookMode): void {
    this.settings.mode = mode;
  }

  emit(type: EventType, object: object, request: RequestRef, previousAttributes?: Record<string, unknown>): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: this.settings.apiVersion,
      created: unixSeconds(this.settings.clock),
      livemode: false,
      pending_webhooks: 1,
      request,
      type,
      data:
        previousAttributes === undefined
          ? { object: snapshot(object) }
          : { object: snapshot(object), previous_attributes: snapshot(previousAttributes) },
    };
    // Stripe sends pretty-printed JSON; a receiver must verify these exact bytes, not a re-serialization.
    const recorded: Recorded = { event, payload: JSON.stringify(event, null, 2), delivered: false };
    this.recorded.push(recorded);
    if (this.settings.mode === 'auto' && this.settings.url !== null) this.schedule(recorded, 0, 0);
    return snapshot(event);
  }

  events(type?: EventType): StripeEvent[] {
    return this.recorded.filter((r) => type === undefined || r.event.type === type).map((r) => snapshot(r.event));
  }

  /** Events not yet delivered with a 2xx answer, oldest first. */
  pending(): StripeEvent[] {
    return this.recorded.filter((r) => !r.delivered).map((r) => snapshot(r.event));
  }

  /** The exact body Stripe would post for an event. */
  payload(eventId: string): string {
    return this.find(eventId).payload;
  }

  attempts(eventId?: string): DeliveryAttempt[] {
    return this.attemptLog.filter((a) => eventId === undefined || a.eventId === eventId).map((a) => ({ ...a }));
  }

  async deliver(eventId: string, options: DeliverOptions = {}): Promise<DeliveryAttempt[]> {
    const recorded = this.find(eventId);
    const out: DeliveryAttempt[] = [];
    for (let i = 0; i < (options.times ?? 1); i += 1) out.push(await this.attempt(recorded, 'manual', options));
    return out;
  }

  /** Delivers every pending event once, oldest first or (order: 'reverse') newest first. */
  async deliverAll(options: { order?: 'created' | 'reverse' } & Omit<DeliverOptions, 'times'> = {}): Promise<DeliveryAttempt[]> {
    const waiting = this.recorded.filter((r) => !r.delivered);
    if (options.order === 'reverse') waiting.reverse();
    const out: DeliveryAttempt[] = [];
    for (const recorded of waiting) out.push(await this.attempt(recorded, 'manual', options));
    return out;
  }

  /** Resolves once no automatic delivery (or retry) is running or waiting. */
  idle(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.outstanding = 0;
    this.settle();
  }

  private find(eventId: string): Recorded {
    const recorded = this.recorded.find((r) => r.event.id === eventId);
    if (recorded === undefined) throw new Error(`Stripe stand-in: no event ${eventId}`);
    return recorded;
  }

  private schedule(recorded: Recorded, delayMs: number, attemptNumber: number): void {
    this.outstanding += 1;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.chain = this.chain
        .then(async () => {
          if (this.closed) return;
          const result = await this.attempt(recorded, 'auto', {});
          if (!result.ok && !recorded.delivered && attemptNumber < this.settings.retries && this.settings.mode === 'auto') {
            this.schedule(recorded, this.settings.retryDelayMs, attemptNumber + 1);
          }
        })
        .finally(() => {
          this.outstanding = Math.max(0, this.outstanding - 1);
          this.settle();
        });
    }, delayMs);
    this.timers.add(timer);
  }

  private settle(): void {
    if (this.outstanding > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async attempt(recorded: Recorded, by: WebhookMode, options: DeliverOptions): Promise<DeliveryAttempt> {
    const url = this.settings.url;
    const at = this.settings.clock.now();
    const base = { eventId: recorded.event.id, type: recorded.event.type, at, by };
    if (url === null) {
      const attempt: DeliveryAttempt = {
        ...base,
        url: '',
        status: null,
        ok: false,
        error: 'no webhook URL configured',
        signature: null,
        responseBody: '',
      };
      this.attemptLog.push(attempt);
      return attempt;
    }
    const signature =
      options.signature !== undefined
        ? options.signature
        : signatureHeader(
            recorded.payload,
            options.signWith ?? this.settings.secret,
            options.timestamp ?? unixSeconds(this.settings.clock),
          );
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    };
    if (signature !== null) headers['stripe-signature'] = signature;
    let attempt: DeliveryAttempt;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: recorded.payload,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      const responseBody = await response.text();
      attempt = { ...base, url, status: response.status, ok: response.ok, error: null, signature, responseBody };
    } catch (error) {
      attempt = {
        ...base,
        url,
        status: null,
        ok: false,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        signature,
        responseBody: '',
      };
    }
    // Only a properly signed, accepted delivery takes an event off the pending list.
    if (attempt.ok && options.signWith === undefined && options.timestamp === undefined && options.signature === undefined)
      recorded.delivered = true;
    this.attemptLog.push(attempt);
    return attempt;
  }
}
