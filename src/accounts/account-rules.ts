// Input rules for accounts: e-mail, password, name, phone, website.
//
// Look-alike identities (DESIGN §15): an e-mail's local part must be printable ASCII and its domain
// is compared in its IDNA ASCII form (node:url domainToASCII: composed, decomposed, full-width and
// upper-case spellings of one domain are one domain); control, zero-width, bidirectional-override
// and other invisible format characters are refused in e-mails (400 invalid_email) and in names,
// notes and websites (400 invalid_field). Lookups read an e-mail by the same rules as registration,
// so that a look-alike can neither register nor be addressed.
import { domainToASCII } from 'node:url';
import { AppError } from '../platform/errors.js';

// Deliberately plain: one @, no spaces, a dot in the domain. Full RFC 5322 is not what users mean.
// The local part is printable ASCII without the characters that delimit addresses.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.]{1,64}$/;
const ASCII_DOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
/**
 * Characters that are invisible or change how text around them is shown: controls (Cc), format
 * characters (Cf: zero-width spaces and joiners, bidirectional marks, overrides and isolates, soft
 * hyphens, byte order marks), line and paragraph separators, and lone surrogates.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** True when `text` holds a control, zero-width, bidirectional or other invisible character. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/** Refuses free text (a name, a note, a website) that holds invisible characters: 400 invalid_field. */
export function checkVisibleText(text: string, field: string): string {
  if (hasInvisibleCharacters(text)) {
    throw new AppError(
      'invalid_field',
      `${field} contains a control, zero-width or bidirectional-override character, which peerpay does not accept.`,
    );
  }
  return text;
}
export const PHONE_E164 = /^\+[1-9]\d{6,14}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/**
 * The one spelling of an e-mail address that peerpay stores and compares: the local part (printable
 * ASCII) lower-cased, the domain in its IDNA ASCII form. Anything else is 400 invalid_email.
 */
export function normalizeEmail(input: string, field = 'email'): string {
  const invalid = (why: string) => new AppError('invalid_email', `${field} is not a valid e-mail address: ${why}.`);
  const text = input.trim();
  if (hasInvisibleCharacters(text)) throw invalid('it contains a control, zero-width or bidirectional-override character');
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) throw invalid('it needs a name, an @ and a domain');
  const local = text.slice(0, at);
  if (!LOCAL_PART.test(local)) throw invalid("the part before the @ must be plain ASCII letters, digits or !#$%&'*+-/=?^_`{|}~.");
  const domain = domainToASCII(text.slice(at + 1)).toLowerCase();
  if (domain === '' || !ASCII_DOMAIN.test(domain)) throw invalid('the domain is not a valid domain name');
  const email = `${local.toLowerCase()}@${domain}`;
  if (email.length > 254) throw invalid('it is longer than 254 characters');
  return email;
}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN) throw new AppError('invalid_request', `password must be at least ${PASSWORD_MIN} characters.`);
  if (password.length > PASSWORD_MAX) throw new AppError('invalid_request', `password must be at most ${PASSWORD_MAX} characters.`);
}

export function normalizeName(input: string): string {
  const name = checkVisibleText(input, 'name').normalize('NFC').trim().replace(/\s+/g, ' ');
  if (name.length === 0) throw new AppError('invalid_request', 'name must not be empty.');
  return name;
}

export function normalizePhone(input: string): string {
  const phone = input.replace(/[\s().-]/g, '');
  if (!PHONE_E164.test(phone)) throw new AppError('invalid_request', 'phone must be an E.164 number such as +14155550123.');
  return phone;
}

export function normalizeWebsite(input: string): string {
  // Checked before parsing: the URL parser would drop some of these characters silently.
  checkVisibleText(input, 'website');
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new AppError('invalid_request', 'website must be an http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('invalid_request', 'website must be an http or https URL.');
  return url.toString();
}

/**
 * The first name shown to other users and agents. Names saved before invisible characters were
 * refused are shown without them, so that no stored name can reorder or hide what an agent reads.
 */
export function firstNameOf(name: string): string {
  const visible = name.replace(new RegExp(INVISIBLE.source, 'gu'), '');
  return visible.split(' ')[0] ?? visible;
}
