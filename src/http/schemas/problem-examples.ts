// One example problem document per error code, for the OpenAPI document: a `detail` as peerpay
// writes it, and the extension members the code carries. Exhaustive, like the code→status map, so
// a new code does not compile until it has an example.
import type { ErrorCode } from '../../platform/errors.js';
import { problemTypeOf, statusOf, titleOf } from '../plugins/problem-details.js';

const DETAIL: Record<ErrorCode, string> = {
  invalid_request: 'The request query contains a NUL character (U+0000), which no field accepts.',
  malformed_json: 'The request body is not valid JSON.',
  invalid_signature: 'No signatures found matching the expected signature for payload; nothing was applied.',
  invalid_amount: 'USD amounts have at most 2 decimals.',
  amount_too_large: 'The amount is over the maximum of 1000000 USD per transfer.',
  amount_too_small:
    'The smallest instant transfer in USD is 0.49 USD (the card network’s and bank’s minimum charge of 0.50 USD, fee included).',
  unsupported_currency: 'Unsupported currency "CHF"; use USD, EUR, GBP or JPY.',
  unsupported_chain:
    'Deposits are received on Polygon only (chain=MATIC); "ETH" is not supported. Tokens sent on another chain would be lost.',
  invalid_address: 'address must be a Polygon address: 0x followed by 40 hexadecimal digits.',
  invalid_email: 'email is not a valid e-mail address: it needs a name, an @ and a domain.',
  invalid_field: 'name contains a control, zero-width or bidirectional-override character, which peerpay does not accept.',
  no_default_address:
    'No address was given and no default withdrawal address is saved; send address, or save one with PUT /stablecoin/withdrawal-address.',
  self_transfer: 'You cannot send money to yourself.',
  insufficient_balance: 'Your available USDC balance is less than the 10 USDC of this transfer (the fee is included in the amount).',
  unauthorized: 'The API key is invalid or has been revoked.',
  invalid_credentials: 'The e-mail and password do not match.',
  card_setup_required: 'No card is set up. Call POST /agent/setup-link and let the user finish the page, then retry.',
  card_declined: 'The card was declined; nothing was charged or sent. Set up another card with POST /agent/setup-link.',
  card_authentication_required:
    "The card's bank wants the cardholder to confirm this payment, which an off-session charge cannot do; nothing was charged or sent. Have the user set the card up again with POST /agent/setup-link, then retry.",
  card_disputed:
    'A card payment of yours is disputed; paying by card is refused until the dispute is closed. Pay by bank debit (paymentMethod ach) instead.',
  account_in_debt:
    'This account owes 12.50 USD after a refund or dispute; money received in USD repays it first, and sending USD waits until it is repaid.',
  account_frozen:
    'This account is frozen by the service; it can sign in, read and receive, but sending, withdrawing and payouts are stopped. Contact support.',
  destination_sanctioned:
    'The destination 0x8576aCC5C05D6Ce88f4e49bf65BdF0C62F91353C is on a sanctions list; nothing was sent, and the account is frozen for review.',
  operator_forbidden: 'Refunds need the admin role; this operator is support.',
  payment_required: 'GET /nano/lookup costs 0.0001 USDC: pay with x402, or send X-Payment-Source: balance with an API key.',
  not_found: 'No route GET /no/such/path.',
  recipient_not_found: 'No account has that handle.',
  ach_setup_required: 'Bank debit is not set up. Call POST /agent/bank-debit-link and let the user finish the page, then retry.',
  already_exists: 'phone is already registered to another account.',
  limit_reached: 'An account has at most 10 webhook endpoints; delete one first.',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  idempotency_key_reused: 'This Idempotency-Key was used with a different request.',
  link_expired: 'This link has expired; ask for a new one.',
  link_used: 'This link has already been used; ask for a new one.',
  body_too_large: 'The request body is larger than this service accepts.',
  unsupported_media_type: 'Send the request body as application/json.',
  too_many_attempts: 'Too many wrong passwords for this account; try again later.',
  rate_limited: 'Rate limit of 120 requests per minute exceeded; retry after 30 seconds.',
  limit_exceeded:
    'This transfer would take your USD sent in the last 24 hours over your limit of 10000.00 USD; 250.00 USD remains. Retry after the time in Retry-After, or send less.',
  processor_unavailable:
    'The payment processor did not answer. Retry shortly with the same Idempotency-Key; you will not be charged twice.',
  funding_unavailable: 'Test tokens exist only on the embedded sandbox chain; this service runs against another chain.',
  withdrawal_unavailable: 'The withdrawal could not be sent; nothing was sent and your balance is unchanged. Retry later.',
  screening_unavailable:
    'Sanctions screening could not be reached, so nothing was sent; retry after the time in Retry-After with the same Idempotency-Key.',
  service_unavailable:
    'peerpay lost its database connection during this request; nothing was half done. Retry with the same Idempotency-Key.',
  busy: 'Too many sign-ins are being checked right now; retry after the time in Retry-After.',
  not_ready: 'Not ready: chain: the chain did not answer in time.',
  internal_error: 'Something went wrong on our side; retry after a brief wait.',
};

const EXTRA: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  amount_too_small: { minimum: '0.49' },
  account_in_debt: { owed: '12.50' },
  limit_exceeded: { limit: '10000.00', window: 'day', remaining: '250.00' },
  ach_setup_required: { needsBankDebitSetup: true },
  card_declined: { transferId: 'tr_4fZk8Q2WnYb7cT1R9xLmP3' },
  card_authentication_required: { transferId: 'tr_4fZk8Q2WnYb7cT1R9xLmP3' },
  not_ready: {
    checks: {
      database: { status: 'pass' },
      chain: { status: 'fail', detail: 'the chain did not answer in time' },
      custody: { status: 'pass' },
      gas: { status: 'pass' },
      draining: { status: 'pass' },
    },
  },
};

/** An example problem document for `code`, with `overrides` (members an operation adds) on top. */
export function exampleProblem(code: ErrorCode, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: problemTypeOf(code),
    title: titleOf(code),
    status: statusOf(code),
    detail: DETAIL[code],
    code,
    requestId: 'req_7Hq2xY9mKd3LpR8sWc4Tn1',
    ...EXTRA[code],
    ...overrides,
  };
}
