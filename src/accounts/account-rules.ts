// Input rules for accounts: e-mail, password, name, phone, website.
import { AppError } from '../platform/errors.js';

// Deliberately plain: one @, no spaces, a dot in the domain. Full RFC 5322 is not what users mean.
const EMAIL = /^[^\s@"<>()\[\],;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
export const PHONE_E164 = /^\+[1-9]\d{6,14}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export function normalizeEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new AppError('invalid_request', 'email is not a valid e-mail address.');
  return email;
}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN) throw new AppError('invalid_request', `password must be at least ${PASSWORD_MIN} characters.`);
  if (password.length > PASSWORD_MAX) throw new AppError('invalid_request', `password must be at most ${PASSWORD_MAX} characters.`);
}

export function normalizeName(input: string): string {
  const name = input.trim().replace(/\s+/g, ' ');
  if (name.length === 0) throw new AppError('invalid_request', 'name must not be empty.');
  return name;
}

export function normalizePhone(input: string): string {
  const phone = input.replace(/[\s().-]/g, '');
  if (!PHONE_E164.test(phone)) throw new AppError('invalid_request', 'phone must be an E.164 number such as +14155550123.');
  return phone;
}

export function normalizeWebsite(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new AppError('invalid_request', 'website must be an http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('invalid_request', 'website must be an http or https URL.');
  return url.toString();
}

export function firstNameOf(name: string): string {
  return name.split(' ')[0] ?? name;
}
