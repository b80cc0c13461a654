// The closed set of event types (DESIGN §13). A client subscribes a webhook endpoint to some of
// them, or to all. Each event's data is the resource as the API shows it; account.frozen and
// account.unfrozen (DESIGN §17) carry the freeze: {id: "frz_…", scope: "all" | "payouts", since},
// and account.unfrozen also `until` (compliance/freezes/freeze-views.ts).
export const EVENT_TYPES = [
  'transfer.sent',
  'transfer.received',
  'transfer.completed',
  'transfer.failed',
  'deposit.credited',
  'withdrawal.completed',
  'withdrawal.failed',
  'payout.paid',
  'payout.failed',
  'link.completed',
  'x402.payment.settled',
  'funds.released',
  'transfer.refunded',
  'transfer.disputed',
  'dispute.closed',
  'account.frozen',
  'account.unfrozen',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
