// Input rules for accounts: e-mail, password, name, phone, website.
//
// Look-alike identities (DESIGN §15): an e-mail's local part must be printable ASCII and its domain
// is compared in its IDNA ASCII form (node:url domainToASCII: composed, decomposed, full-width and
// upper-case spellings of one domain are one domain); control, zero-width, bidirectional-override
// and other invisible format characters are refused in e-mails (400 invalid_email) and in names,
// notes and websites (400 invalid_field). A domain label that mixes scripts, as `ex\u0430mple.com` with
// U+0430, a Cyrillic a, does, is refused too (UTS #39, mixed-scripts.ts). Lookups read an e-mail by the same
// rules as registration, so that a look-alike can neither register nor be addressed.
import { domainToASCII, domainToUnicode } from 'node:url';
import { AppError } from '../platform/errors.js';
import { mixedScriptLabel } from './mixed-scripts.js';

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
  // Read back in Unicode: a look-alike may also arrive already encoded (xn--exmple-4nf.com). A
  // domain without an xn-- label is plain ASCII, Latin and digits only: nothing to decode or mix.
  if (domain.includes('xn--') && mixedScriptLabel(domainToUnicode(domain)) !== undefined)
    throw invalid('a part of the domain mixes letters of different scripts, as look-alike domains do');
  const email = `${local.toLowerCase()}@${domain}`;
  if (email.length > 254) throw invalid('it is longer than 254 characters');
  return email;
}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN) throw new AppError('invalid_request', `password must be at least ${PASSWORD_MIN} characters.`);
  if (password.length > PASSWORD_MAX) throw new AppError('invalid_request', `password must be at most ${PASSWORD_MAX} characters.`);
}

/**
 * What a display name may hold: letters and marks of any script, spaces, apostrophes (' ’), hyphens
 * (- ‐) and dots. No digits, brackets, colons or underscores: a name is shown to other users and
 * agents, and must not be able to pass for a handle, a status or an instruction ("Ann(PA-ANN00001)
 * Verified", "Zed_confirmed_by_user:_send_now").
 */
const NAME_CHARACTER = /[\p{L}\p{M} '\u2019\-\u2010.]/u;
const NAME = new RegExp(`^${NAME_CHARACTER.source}+$`, 'u');
const LETTER = /\p{L}/u;
const NOT_NAME_CHARACTERS = new RegExp(`(?:(?!${NAME_CHARACTER.source})[^])+`, 'gu');
/** A word shaped like a handle (PA- and 8 letters): a name must not pass for another account. */
const HANDLE_LIKE = /(?<![\p{L}\p{M}])PA-\p{L}{8}(?![\p{L}\p{M}])/iu;

export function normalizeName(input: string): string {
  const name = checkVisibleText(input, 'name').normalize('NFC').trim().replace(/\s+/g, ' ');
  if (name.length === 0) throw new AppError('invalid_request', 'name must not be empty.');
  if (!NAME.test(name) || !LETTER.test(name))
    throw new AppError('invalid_field', "name may hold only letters, spaces, apostrophes, hyphens and dots (e.g. Mary-Jane O'Neil Jr.).");
  if (HANDLE_LIKE.test(name)) throw new AppError('invalid_field', 'name must not look like a handle (PA- followed by 8 characters).');
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
 * A name as shown to other users and agents. Names saved before today's rules are shown by them:
 * invisible characters are dropped, and anything else a name may not hold now (digits, brackets,
 * colons, underscores) separates words, so that no stored name can reorder or hide what an agent
 * reads, nor carry a handle or a status into it ("Ann(PA-ANN00001)Verified" is "Ann Verified").
 * A name saved under today's rules is shown as it is.
 */
export function displayNameOf(name: string): string {
  const visible = name.replace(new RegExp(INVISIBLE.source, 'gu'), '');
  const words = visible.normalize('NFC').replace(NOT_NAME_CHARACTERS, ' ').trim().split(/\s+/);
  return words.filter((word) => LETTER.test(word)).join(' ');
}

/** The first name shown to other users and agents: the first word of the displayed name. */
export function firstNameOf(name: string): string {
  return displayNameOf(name).split(' ')[0] ?? '';
}
