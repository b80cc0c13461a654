// The delivery job's round (DESIGN §13): claim due deliveries, send each signed, record every
// attempt. Any 2xx whose answer ends within the timeout is success; anything else is retried after the configured waits (about 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h), and an endpoint failing for 5 days is disabled. Several processes
// share the queue; a process that dies mid-send leaves the lease to run out and the delivery due
// again, so every event is delivered at least once.
import { claimDueDeliveries, recordAttempt, releaseLease, type ClaimedDelivery } from './deliveries-repository.js';
import { sendWebhook } from './webhook-sender.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { DestinationGuard } from './destination-guard.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import type { SocketSlots } from './webhook-socket-slots.js';
import type { Clock } from '../platform/clock.js';

type DeliveryDeps = {
  db: Db;
  clock: Clock;
  config: Config;
  webhookSecrets: WebhookSecrets;
  webhookSockets: SocketSlots;
  webhookDestinations: DestinationGuard;
};

/** Deliveries claimed per round. */
const BATCH = 50;

const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** Sends what is due; returns how many deliveries were attempted (those over a socket limit wait for the next round). */
export async function deliverDueWebhooks(deps: DeliveryDeps): Promise<number> {
  const { timeoutMs, maxSockets, maxSocketsPerEndpoint } = deps.config.webhooks;
  const workers = Math.min(maxSockets, BATCH);
  const claimed = await claimDueDeliveries(deps.db, {
    now: deps.clock.now(),
    // Longer than a worker's share of the batch can take (each send is bounded by the timeout),
    // so that a live worker never loses its lease mid-send.
    leaseMs: Math.ceil(BATCH / workers) * (timeoutMs + 1000) + 30_000,
    limit: BATCH,
    perEndpoint: maxSocketsPerEndpoint,
  });
  let next = 0;
  let attempted = 0;
  const worker = async () => {
    while (next < claimed.length) if (await deliverWithinLimits(deps, claimed[next++]!)) attempted++;
  };
  await Promise.all(Array.from({ length: Math.min(workers, claimed.length) }, worker));
  return attempted;
}

/**
 * Sends `d` if this process has a socket to spare, in all and for its endpoint. Over a limit is
 * peerpay's own condition, not the receiver's failure: no attempt is spent and nothing counts
 * towards disabling the endpoint; the lease is given back and the delivery is due at the next round.
 */
async function deliverWithinLimits(deps: DeliveryDeps, d: ClaimedDelivery): Promise<boolean> {
  const release = deps.webhookSockets.tryTake(d.endpointId);
  if (!release) {
    await releaseLease(deps.db, d.id);
    return false;
  }
  try {
    await deliverOne(deps, d);
  } finally {
    release();
  }
  return true;
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
    { timeoutMs, guard: deps.config.mode === 'live' ? deps.webhookDestinations : null },
  );
  const succeeded = result.error === null && result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
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

/** The delivery queue's service (DESIGN §21): built once over what a round uses. */
export interface WebhookDelivery {
  /** One round: sends what is due; answers how many deliveries were attempted. */
  deliverDue(): Promise<number>;
}

export function createWebhookDelivery(deps: DeliveryDeps): WebhookDelivery {
  return { deliverDue: () => deliverDueWebhooks(deps) };
}
