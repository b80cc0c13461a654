// The confirmation rules of DESIGN §12, then the movement: send_money and withdraw move money only
// on the user's yes, asked through the client (elicitation, when the client declared it) or, without
// it, by a confirmationId bound to the account and the exact terms (confirmations.ts) that a second
// call must bring back.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PeerpayError } from '@peerpay/client';
import { hashTerms, idempotencyKeyOf, type ConfirmationStore } from './confirmations.js';
import { askToConfirm, elicitationModes } from './elicitation.js';
import type { PeerpayMcpOptions, ToolExtra } from './options.js';
import { ok, toolError } from './tool-results.js';

/** A movement of money waiting for the user's yes. */
export interface Movement<T> {
  /** The exact terms, as hashed into a confirmation. */
  terms: Record<string, string | null>;
  summary: string;
  structuredTerms: object;
  confirmationId: string | undefined;
  question: string;
  execute: (idempotencyKey?: string) => Promise<T>;
  describe: (result: T) => string;
}

/** Asks for the user's yes to a movement's terms, and moves the money only on it. */
export type ConfirmThenMove = <T extends object>(extra: ToolExtra, m: Movement<T>) => Promise<CallToolResult>;

interface FlowOptions {
  server: McpServer;
  confirmations: ConfirmationStore;
  owner: PeerpayMcpOptions['owner'];
  elicitationTimeoutMs: number;
}

export function confirmationFlow(options: FlowOptions): ConfirmThenMove {
  return async (extra, m) => {
    if (elicitationModes(options.server).form) return confirmByElicitation(extra, m, options.elicitationTimeoutMs);
    const owner = await options.owner(extra);
    const termsHash = hashTerms(m.terms);
    if (m.confirmationId === undefined) return confirmationRequired(options.confirmations, m, owner, termsHash);
    return moveOnConfirmation(options.confirmations, m, { id: m.confirmationId, owner, termsHash });
  };
}

/** The client asks the user; money moves on a yes only. */
async function confirmByElicitation<T extends object>(extra: ToolExtra, m: Movement<T>, timeoutMs: number): Promise<CallToolResult> {
  const answer = await askToConfirm(extra, m.summary, m.question, timeoutMs);
  if (answer instanceof Error)
    return toolError('confirmation_failed', `The user could not be asked (${answer.message}); nothing was moved.`);
  if (answer.action !== 'accept' || answer.content?.confirm !== true) {
    const said = answer.action === 'accept' ? 'answered no' : answer.action === 'decline' ? 'declined' : 'cancelled';
    return ok({ status: 'not_confirmed', action: answer.action, terms: m.structuredTerms }, `The user ${said}. Nothing was moved.`);
  }
  return moved(m, await m.execute());
}

/** The first call without elicitation: nothing moves; the answer is the terms and a confirmationId. */
async function confirmationRequired<T>(
  store: ConfirmationStore,
  m: Movement<T>,
  owner: string,
  termsHash: string,
): Promise<CallToolResult> {
  const confirmation = await store.create({ owner, termsHash });
  return ok(
    {
      status: 'confirmation_required',
      confirmationId: confirmation.id,
      expiresAt: confirmation.expiresAt.toISOString(),
      terms: m.structuredTerms,
    },
    `Nothing has been moved yet. ${m.summary}\nAsk the user to confirm these terms. Only if they explicitly say yes, call this tool again with the same arguments and confirmationId "${confirmation.id}" (valid until ${confirmation.expiresAt.toISOString()}).`,
  );
}

const NOT_CLAIMED = {
  not_found: 'No such confirmation for this account; nothing was moved.',
  expired: 'The confirmation expired (they last 5 minutes); nothing was moved.',
  used: 'The confirmation was used already; nothing more was moved.',
  terms_changed: 'The terms are not those the confirmation was given for; nothing was moved.',
};

/** The second call: the confirmationId is claimed for these terms, then the money moves once. */
async function moveOnConfirmation<T extends object>(
  store: ConfirmationStore,
  m: Movement<T>,
  claimed: { id: string; owner: string; termsHash: string },
): Promise<CallToolResult> {
  const claim = await store.claim(claimed);
  if (claim !== 'claimed') return toolError(`confirmation_${claim}`, NOT_CLAIMED[claim]);
  try {
    // The key follows from the confirmation: however often this call is repeated, money moves once.
    return moved(m, await m.execute(idempotencyKeyOf(claimed.id)));
  } catch (error) {
    // Unknown outcome: the same confirmationId may be sent again; its key makes the retry a replay.
    if (error instanceof PeerpayError && (error.status === 0 || error.status >= 500 || error.code === 'idempotency_key_in_use')) {
      await store.release({ id: claimed.id, owner: claimed.owner });
    }
    throw error;
  }
}

function moved<T extends object>(m: Movement<T>, result: T): CallToolResult {
  return ok(result, m.describe(result));
}
