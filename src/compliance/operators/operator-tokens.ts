// Operator API tokens: `po_` + 32 random bytes in base62, shown once; only their SHA-256 is kept
// (as API keys are). Console enrolment tokens: 32 random bytes in base62 in a one-time link, also
// kept as their SHA-256 only.
import { base62, newToken, sha256Hex } from '../../platform/ids.js';
import { randomBytes } from 'node:crypto';

export const OPERATOR_TOKEN_PREFIX = 'po_';
const OPERATOR_TOKEN_PATTERN = /^po_[0-9A-Za-z]{43}$/;

export interface IssuedSecret {
  /** Shown once, never stored. */
  token: string;
  hash: string;
}

export function issueOperatorToken(): IssuedSecret {
  const token = `${OPERATOR_TOKEN_PREFIX}${base62(randomBytes(32))}`;
  return { token, hash: sha256Hex(token) };
}

/** True when `token` has the shape of an operator token peerpay issues (anything else is not looked up). */
export function isWellFormedOperatorToken(token: string): boolean {
  return OPERATOR_TOKEN_PATTERN.test(token);
}

export function issueEnrolmentToken(): IssuedSecret {
  const token = newToken();
  return { token, hash: sha256Hex(token) };
}
