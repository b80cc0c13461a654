// The entity secret as Circle checks it: Circle publishes an RSA public key
// (GET /v1/w3s/config/entity/publicKey); every call that acts on wallets carries
// entitySecretCiphertext, the 32-byte secret RSA-OAEP(SHA-256)-encrypted afresh. Circle decrypts
// it, compares it with the registered secret, and refuses a ciphertext it has seen before.
import { constants, generateKeyPairSync, privateDecrypt, type KeyObject } from 'node:crypto';
import { circleErrors } from './errors.js';

export interface EntitySecretCheck {
  /** PEM, as Circle serves it. */
  readonly publicKeyPem: string;
  /** Throws the CircleError Circle would answer; records the ciphertext as used. */
  accept(ciphertext: unknown): void;
}

export function createEntitySecretCheck(entitySecretHex: string): EntitySecretCheck {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const used = new Set<string>();
  const expected = entitySecretHex.toLowerCase();
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    accept(ciphertext) {
      if (typeof ciphertext !== 'string' || ciphertext === '') {
        throw circleErrors.parameter('entitySecretCiphertext', 'entitySecretCiphertext is required');
      }
      if (used.has(ciphertext)) throw circleErrors.ciphertextReused();
      if (decrypt(privateKey, ciphertext) !== expected) throw circleErrors.entitySecretInvalid();
      used.add(ciphertext);
    },
  };
}

function decrypt(privateKey: KeyObject, ciphertext: string): string | null {
  try {
    return privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(ciphertext, 'base64'),
    ).toString('hex');
  } catch {
    return null;
  }
}
