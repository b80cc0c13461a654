// link.completed (DESIGN §13) for every kind of link (card, bank debit, payout account, funding):
// links are shared by the fiat and stablecoin features (links-repository.ts), and so is this.
import type { Trx } from '../db/transaction.js';
import { recordEvent } from '../events/record-event.js';
import { presentCompletedLink, type LinkKind } from './link-view.js';
import type { Token } from '../money/assets.js';

export async function recordLinkCompleted(
  trx: Trx,
  input: { accountId: number; linkId: number; kind: LinkKind; outcome: string; now: Date; funding?: { token: Token; amountMinor: bigint } },
): Promise<void> {
  const data = presentCompletedLink({ ...input, completedAt: input.now });
  await recordEvent(trx, { accountId: input.accountId, type: 'link.completed', subjectId: `link_${input.linkId}`, data, now: input.now });
}
