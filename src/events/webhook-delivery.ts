// The delivery job's round (DESIGN §13): claim due deliveries, send each signed, record every
// attempt. Any 2xx is success; anything else is retried after the configured waits (about 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h), and an endpoint failing for 5 days is disabled. Several processes
// share the queue; a process that dies mid-send leaves the lease to run out and the delivery due
// again, so every event is delivered at least once.
import type { Deps } from '../deps.js';
import { claimDueDeliveries, recordAttempt, type ClaimedDelivery } from './deliveries-repository.js';
import { sendWebhook } from './webhook-sender.js';

type DeliveryDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'webhookSecrets'>;

export interface DeliveryLimits {
  /** Deliveries claimed per round. */
  batch: number;
  /** Sent at once by this process. */
  concurrency: number;
  /** In flight at once per endpoint, across processes (as far as leases tell). */
  perEndpoint: number;
}

export const DELIVERY_LIMITS: DeliveryLimits = { batch: 50, concurrency: 8, perEndpoint: 2 };

const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

export async function deliverDueWebhooks(deps: DeliveryDeps, limits: DeliveryLimits = DELIVERY_LIMITS): Promise<number> {
  const { timeoutMs } = deps.config.webhooks;
  const claimed = await claimDueDeliveries(deps.db, {
    now: deps.clock.now(),
    // Longer than a send can take, so that a live worker never loses its lease mid-send.
    leaseMs: timeoutMs * 3 + 30_000,
    limit: limits.batch,
    perEndpoint: limits.perEndpoint,
  });
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) await deliverOne(deps, claimed[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limits.concurrency, claimed.length) }, worker));
  return claimed.length;
}

/** The body: `{type, timestamp, data}`, data being the event as GET /events shows it (its id included). */
export function webhookBody(d: Pick<ClaimedDelivery, 'eventId' | 'eventType' | 'eventData' | 'eventCreatedAt'>): string {
  const createdAt = d.eventCreatedAt.toISOString();
  return JSON.stringify({
    type: d.eventType,
    timestamp: createdAt,
    data: { id: d.eventId, type: d.eventType, createdAt, data: d.eventData },
  });
}

async function deliverOne(deps: DeliveryDeps, d: ClaimedDelivery): Promise<void> {
  const { retryScheduleMs, timeoutMs } = deps.config.webhooks;
  const started = Date.now();
  const at = deps.clock.now();
  const result = await sendWebhook(
    {
      url: d.url,
      secret: deps.webhookSecrets.secretFor(d.secretSalt),
      id: d.eventId,
      body: webhookBody(d),
      // The time of sending (receivers refuse stale timestamps), by the wall clock they compare it with.
      timestampSeconds: Math.floor(Date.now() / 1000),
    },
    { timeoutMs, guard: deps.config.mode === 'live' },
  );
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const attempt = d.attempts + 1;
  const waitMs = retryScheduleMs[attempt - 1];
  await recordAttempt(deps.db, {
    deliveryId: d.id,
    endpointId: d.endpointId,
    attempt,
    at,
    statusCode: result.statusCode,
    error: result.error ?? (succeeded ? null : `answered ${result.statusCode}`),
    durationMs: Date.now() - started,
    succeeded,
    retryAt: succeeded || waitMs === undefined ? null : new Date(at.getTime() + waitMs),
    disableIfFailingSince: new Date(at.getTime() - DISABLE_AFTER_MS),
  });
}
