// What every console answer carries (DESIGN §18) and the console's cookies. The session cookie is
// HttpOnly and SameSite=Strict, Secure in live mode; the form cookie carries the double-submit
// value of the forms shown before a session exists (sign-in, enrolment).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'peerpay_console';
export const FORM_COOKIE = 'peerpay_console_form';

export const CONSOLE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function setConsoleHeaders(reply: FastifyReply): void {
  reply
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Robots-Tag', 'noindex');
}

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

export interface CookieOptions {
  secure: boolean;
}

/** Sets (or with `value` null, clears) a console cookie: HttpOnly, SameSite=Strict, Path=/console. */
export function setCookie(reply: FastifyReply, name: string, value: string | null, options: CookieOptions): void {
  const parts = [`${name}=${value === null ? '' : encodeURIComponent(value)}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict'];
  if (value === null) parts.push('Max-Age=0');
  if (options.secure) parts.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

/** The form cookie's value, made (and set) when the browser has none yet. */
export function formToken(request: FastifyRequest, reply: FastifyReply, options: CookieOptions): string {
  const existing = readCookie(request, FORM_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const made = randomBytes(32).toString('base64url');
  setCookie(reply, FORM_COOKIE, made, options);
  return made;
}

export function sameToken(a: string | undefined | null, b: string | undefined | null): boolean {
  if (!a || !b) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A form body as strings: a field sent twice or not as text counts as absent. */
export function formFields(body: unknown): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  if (typeof body !== 'object' || body === null) return fields;
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

export function sendHtml(reply: FastifyReply, status: number, document: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(document);
}
