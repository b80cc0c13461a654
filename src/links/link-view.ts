// A completed link as an event shows it (link.completed, DESIGN §13): which link, what it set up
// and when. Tokens are never shown: only their hash is stored.
import { toJsonNumber } from '../money/amount.js';
import type { Token } from '../money/assets.js';

export type LinkKind = 'card' | 'bank_debit' | 'payout' | 'funding';

export function presentCompletedLink(input: {
  linkId: number;
  kind: LinkKind;
  outcome: string;
  completedAt: Date;
  funding?: { token: Token; amountMinor: bigint };
}) {
  return {
    linkId: `link_${input.linkId}`,
    kind: input.kind,
    outcome: input.outcome,
    completedAt: input.completedAt.toISOString(),
    ...(input.funding ? { amount: toJsonNumber(input.funding.amountMinor, input.funding.token), currency: input.funding.token } : {}),
  };
}
