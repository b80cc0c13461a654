// The body of a Circle notification: {subscriptionId, notificationId, notificationType,
// notification, timestamp, version}. For transactions.* types `notification` is the transaction
// as GET /v1/w3s/transactions/{id} answers it; other types carry no transaction for peerpay.

export interface NotificationBody {
  notificationId: string;
  notificationType: string;
  transaction: Record<string, unknown> | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed body, or null when it is not JSON or lacks a notification's fields. */
export function parseNotification(rawBody: Buffer): NotificationBody | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(body)) return null;
  const { notificationId, notificationType, notification } = body;
  if (typeof notificationId !== 'string' || typeof notificationType !== 'string' || notificationId === '') return null;
  if (!notificationType.startsWith('transactions.')) return { notificationId, notificationType, transaction: null };
  if (!isRecord(notification)) return null;
  const { id, transactionType, state, createDate, updateDate } = notification;
  const fields = [id, transactionType, state, createDate, updateDate];
  if (!fields.every((field) => typeof field === 'string')) return null;
  return { notificationId, notificationType, transaction: notification };
}
