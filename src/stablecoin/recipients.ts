// Who a stablecoin transfer goes to: `to` names a user by e-mail, handle (PA-XXXXXXXX) or E.164
// phone (DESIGN §6). Which one is read from its shape; a `to` of none of these shapes is invalid
// input (400), a well-formed one that names nobody is 404 recipient_not_found.
import { sameAccountKey, type AccountKey, type AccountLookup, type AccountLookups } from '../accounts/account-lookups.js';
import type { AccountRow } from '../accounts/accounts-repository.js';
import { hasInvisibleCharacters, normalizeEmail, normalizePhone } from '../accounts/account-rules.js';
import { AppError } from '../platform/errors.js';
import type { Db } from '../db/database.js';

const HANDLE = /^PA-[A-Z0-9]{8}$/i;
// Digits with the separators people write phone numbers with; normalizePhone then insists on E.164.
const PHONE_LIKE = /^\+?[\d\s().-]+$/;

export type RecipientQuery = { email: string } | { handle: string } | { phone: string };

/** Reads `to` as an e-mail, a handle or a phone number; invalid_request when it is none of them. */
export function recipientQueryOf(to: string, field = 'to'): RecipientQuery {
  const text = to.trim();
  if (text.includes('@')) return { email: emailOf(text, field) };
  if (hasInvisibleCharacters(text))
    throw new AppError('invalid_field', `${field} contains a control, zero-width or bidirectional-override character.`);
  if (HANDLE.test(text)) return { handle: text.toUpperCase() };
  if (PHONE_LIKE.test(text)) {
    try {
      return { phone: normalizePhone(text) };
    } catch {
      // A "+" written unencoded in a query string arrives as a space, which trimming then drops.
      throw new AppError(
        'invalid_request',
        `${field} looks like a phone number but is not in E.164 form, e.g. +14155550123 (in a query string, write + as %2B).`,
      );
    }
  }
  throw new AppError(
    'invalid_request',
    `${field} must be an e-mail address, a handle (PA- followed by 8 characters) or an E.164 phone number.`,
  );
}

/** An e-mail by the registration's rules (DESIGN §15); 400 invalid_email naming `field` otherwise. */
export function emailOf(text: string, field: string): string {
  return normalizeEmail(text, field);
}

/**
 * The account `query` names; 404 recipient_not_found when there is none. `started` is a look-up
 * of it already under way (a quote's, read with its key): used when it names the same account.
 */
export async function findRecipient(
  deps: { db: Db; accountLookups: AccountLookups },
  query: RecipientQuery,
  started?: AccountLookup | null,
): Promise<AccountRow> {
  const key = accountKeyOf(query);
  // Coalesced: the recipients of the transfers and quotes of one turn are read in one statement.
  const account = await (started && sameAccountKey(started.key, key) ? started.row : deps.accountLookups.account(key));
  if (!account)
    throw new AppError(
      'recipient_not_found',
      `No account has that ${'phone' in query ? 'phone number' : 'email' in query ? 'e-mail address' : 'handle'}.`,
    );
  return account;
}

/** The account a query-string value names, for a look-up started early; undefined when it is not a well-formed recipient. */
export function recipientKeyOf(to: unknown): AccountKey | undefined {
  if (typeof to !== 'string') return undefined;
  try {
    return accountKeyOf(recipientQueryOf(to));
  } catch {
    return undefined; // refused with its reason by the route, after validation
  }
}

/** The query in the form the accounts are stored in, whoever built it. */
function accountKeyOf(query: RecipientQuery): AccountKey {
  if ('handle' in query) return { handle: query.handle.trim().toUpperCase() };
  if ('email' in query) return { email: normalizeEmail(query.email) };
  return { phone: query.phone };
}

/**
 * The recipient's handle as an answer about `query` may show it, or null. A phone number is not a
 * way to look people up: named by one, an account that is not in the public directory keeps its
 * handle (and so its name, which a handle looks up) to itself, so that numbers cannot be tried one
 * after another to learn whose they are.
 */
export function shownHandleOf(query: RecipientQuery, recipient: Pick<AccountRow, 'handle' | 'discoverable'>): string | null {
  return 'phone' in query && !recipient.discoverable ? null : recipient.handle;
}

/** The recipient of a transfer from `senderAccountId`; sending to oneself is 400 self_transfer. */
export async function resolveRecipient(
  deps: { db: Db; accountLookups: AccountLookups },
  input: { senderAccountId: number; query: RecipientQuery; started?: AccountLookup | null },
): Promise<AccountRow> {
  const recipient = await findRecipient(deps, input.query, input.started);
  if (recipient.id === input.senderAccountId) throw new AppError('self_transfer', 'You cannot send money to yourself.');
  return recipient;
}
