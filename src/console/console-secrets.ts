// The console's keys, derived from the master seed (decision 0043) as the webhook signing secrets
// are (decision 0017): one seals TOTP secrets at rest (AES-256-GCM, bound to the operator's id), one
// makes each session's CSRF token. Neither key nor anything it protects is ever stored in plain.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export interface ConsoleSecrets {
  /** A TOTP secret (base32) as stored for this operator: `v1.<iv>.<ciphertext+tag>`. */
  seal(secret: string, operatorId: string): string;
  /** The base32 secret back; null when it was sealed for another operator or under another seed. */
  open(sealed: string, operatorId: string): string | null;
  /** The CSRF token every form of the session with this token carries. */
  csrfFor(sessionToken: string): string;
}

const derive = (seed: Uint8Array, info: string) => Buffer.from(hkdfSync('sha256', seed, Buffer.from('peerpay'), Buffer.from(info), 32));

export function createConsoleSecrets(masterSeed: Uint8Array): ConsoleSecrets {
  const totpKey = derive(masterSeed, 'console totp secrets v1');
  const csrfKey = derive(masterSeed, 'console csrf tokens v1');
  return {
    seal(secret, operatorId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', totpKey, iv).setAAD(Buffer.from(operatorId));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    },
    open(sealed, operatorId) {
      const [version, iv, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !body) return null;
      const bytes = Buffer.from(body, 'base64url');
      if (bytes.length < 17) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', totpKey, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(operatorId));
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
    csrfFor: (sessionToken) => createHmac('sha256', csrfKey).update(sessionToken).digest('base64url'),
  };
}
