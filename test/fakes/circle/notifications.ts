// Notifications as Circle sends them: a JSON body {subscriptionId, notificationId,
// notificationType, notification, timestamp, version}, POSTed with X-Circle-Signature (base64
// ECDSA-SHA256 over the exact body, P-256 key) and X-Circle-Key-Id (whose public key is served at
// GET /v2/notifications/publicKey/{id}). A delivery that fails (network error or non-2xx) stays
// pending and is tried again by the next sync(), as Circle retries; nothing here runs on a timer.
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { NotificationFaultPlan } from './faults.js';

export interface Notification {
  notificationId: string;
  notificationType: string;
  /** The exact body sent (every attempt sends the same bytes). */
  body: string;
}

export interface DeliveryAttempt {
  notificationId: string;
  notificationType: string;
  url: string;
  status: number | null;
  ok: boolean;
}

export interface NotificationCenter {
  readonly keyId: string;
  readonly publicKeyBase64: string;
  readonly faults: NotificationFaultPlan;
  setUrl(url: string | null): void;
  /** Makes a notification; sent by the next flush() unless a fault says otherwise. */
  emit(notificationType: string, notification: Record<string, unknown>): Notification;
  /** Sends everything pending, in order, one at a time (started now, awaited by idle()). */
  flush(): void;
  /** Sends the held-back ('late') notifications, in order or reversed, then everything pending. */
  deliverLate(order?: 'created' | 'reverse'): void;
  idle(): Promise<void>;
  sent(): Notification[];
  attempts(): DeliveryAttempt[];
  pending(): Notification[];
  /** A signature header for any body, for tests of the verifier. */
  signBody(body: string): string;
}

export function createNotificationCenter(options: { url: string | null; now: () => number }): NotificationCenter {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyId = randomUUID();
  const subscriptionId = randomUUID();
  const faults = new NotificationFaultPlan();
  let url = options.url;
  const made: Notification[] = [];
  let pending: Notification[] = [];
  let late: Notification[] = [];
  const log: DeliveryAttempt[] = [];
  let chain: Promise<void> = Promise.resolve();
  const signBody = (body: string) => sign('sha256', Buffer.from(body), privateKey).toString('base64');

  async function deliver(notification: Notification): Promise<boolean> {
    if (url === null) return false;
    let status: number | null = null;
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Circle-Signature': signBody(notification.body), 'X-Circle-Key-Id': keyId },
        body: notification.body,
      });
      status = answer.status;
      await answer.arrayBuffer();
    } catch {
      // A network failure: no status; the delivery is tried again by the next sync().
    }
    const ok = status !== null && status >= 200 && status < 300;
    log.push({ notificationId: notification.notificationId, notificationType: notification.notificationType, url, status, ok });
    return ok;
  }

  function send(batch: Notification[]): void {
    chain = chain.then(async () => {
      const failed: Notification[] = [];
      for (const notification of batch) if (!(await deliver(notification))) failed.push(notification);
      pending = [...failed, ...pending];
    });
  }

  return {
    keyId,
    publicKeyBase64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    faults,
    setUrl(next) {
      url = next;
    },
    emit(notificationType, notification) {
      const notificationId = randomUUID();
      const timestamp = new Date(options.now()).toISOString();
      const body = JSON.stringify({ subscriptionId, notificationId, notificationType, notification, timestamp, version: 2 });
      const record: Notification = { notificationId, notificationType, body };
      made.push(record);
      const fault = faults.take();
      if (fault === 'late') late.push(record);
      else if (fault === 'duplicate') pending.push(record, record);
      else if (fault !== 'drop') pending.push(record);
      return record;
    },
    flush() {
      const batch = pending;
      pending = [];
      send(batch);
    },
    deliverLate(order = 'created') {
      const batch = order === 'reverse' ? [...late].reverse() : late;
      late = [];
      pending = [...batch, ...pending];
      this.flush();
    },
    idle: () => chain,
    sent: () => [...made],
    attempts: () => [...log],
    pending: () => [...pending, ...late],
    signBody,
  };
}
