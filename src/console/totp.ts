// TOTP as DESIGN §18 fixes it (RFC 6238: SHA-1, 6 digits, 30-second steps) with `otpauth`, and the
// enrolment's QR code drawn as inline SVG (no script, no image request).
import { Secret, TOTP } from 'otpauth';
import qrcode from 'qrcode-generator';
import { escapeHtml } from './html.js';

export const TOTP_PERIOD_S = 30;

function totpOf(secret: string, name = 'operator'): TOTP {
  return new TOTP({
    issuer: 'peerpay',
    label: name,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** A new secret: 20 random bytes, in base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` link an authenticator app reads (also what the QR code holds). */
export function otpauthUri(secret: string, operatorName: string): string {
  return totpOf(secret, operatorName).toString();
}

/**
 * The 30-second step a code is good for at `now`, one step either side allowed for clock drift;
 * null for a wrong code. The caller refuses a step it already accepted (a replayed code).
 */
export function acceptedStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
}

/** The QR code of `text` as an SVG element with an accessible name. */
export function qrSvg(text: string, label: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const svg = qr.createSvgTag({ cellSize: 4, margin: 16, scalable: true });
  return svg.replace('<svg ', `<svg role="img" aria-label="${escapeHtml(label)}" class="qr" `);
}
