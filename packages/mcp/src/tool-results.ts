// How a tool answers: its structured content with a summary for the model, and refusals as tool
// errors with the problem's code and the next step (DESIGN §12). Shared by every tool module.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PeerpayError } from '@peerpay/client';
import { complianceNextStep, retryTime, type RefusalContext } from './refusals.js';

/** Terms refused before the service is asked (an amount that is no decimal, a field of the wrong rail). */
export class TermsError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Steps that get a refused call going again, by problem code. */
export const NEXT_STEP: Record<string, string> = {
  card_setup_required:
    'The user has no card on file: call create_link with kind "card", give the user the link, and retry once they say it is done.',
  card_declined: 'The card was declined: call create_link with kind "card" so the user can set up another card.',
  card_authentication_required: 'The card needs the cardholder: call create_link with kind "card" and have the user complete it.',
  ach_setup_required: 'Bank debit is not set up: call create_link with kind "bank_debit", or send by card (paymentMethod "instant").',
  insufficient_balance: 'The balance is too low: call get_balances, and create_link with kind "funding" to add USDC or EURC.',
  recipient_not_found:
    'No peerpay account has that recipient: ask the user for the recipient’s e-mail address or PA- handle (check_account can look it up).',
  no_default_address: 'No withdrawal address is saved: ask the user for the Polygon address to send to.',
  confirmation_expired: 'Call the tool again without confirmationId to get fresh terms, and ask the user again.',
  // The detail already says the confirmation was used: the next step only adds what to do.
  confirmation_used: 'Call list_transfers to see what was sent.',
  confirmation_terms_changed:
    'The terms differ from those the user confirmed. Call without confirmationId to get the new terms, and ask the user.',
  confirmation_not_found: 'Call the tool without confirmationId to get terms and a confirmationId, and ask the user.',
};

/**
 * A tool's answer: the summary, then the structured content as JSON in a text block of its own (as
 * the MCP specification recommends), so that a client passing only text to the model still passes
 * everything: the transfers of a page, a confirmationId, a problem's fields.
 */
function answer(structured: Record<string, unknown>, text: string, isError = false): CallToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [
      { type: 'text', text },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

export function ok(structured: object, text: string): CallToolResult {
  return answer(structured as Record<string, unknown>, text);
}

export function toolError(code: string, detail: string, problem: Record<string, unknown> = {}, nextStep = NEXT_STEP[code]): CallToolResult {
  return answer(
    { ...problem, code, detail, ...(nextStep ? { nextStep } : {}) },
    `${code}: ${detail}${nextStep ? ` ${nextStep}` : ''}`,
    true,
  );
}

/** A refusal of the service as a tool error; a Retry-After is given as seconds and as the time it ends. */
function refusal(error: PeerpayError, context: RefusalContext): CallToolResult {
  const now = Date.now();
  const retry =
    error.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: error.retryAfterSeconds, retryAt: new Date(now + error.retryAfterSeconds * 1000).toISOString() };
  const next = complianceNextStep(error, context, now) ?? NEXT_STEP[error.code];
  // The time is in the next step where it matters; without one, the text still says when to retry.
  const when =
    next === undefined && error.retryAfterSeconds !== undefined ? ` Retry after ${retryTime(error.retryAfterSeconds, now).at}.` : '';
  return toolError(String(error.code), error.problem.detail + when, { ...error.problem, ...retry }, next);
}

/**
 * A refusal of the service becomes a tool error with its problem's code; nothing else is caught.
 * `context` names what the call was about, for refusals whose problem does not (a limit's currency).
 */
export async function run(body: () => Promise<CallToolResult>, context: RefusalContext = {}): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof PeerpayError) return refusal(error, context);
    if (error instanceof TermsError) return toolError(error.code, error.detail);
    throw error;
  }
}
