// WALLET_PROVIDER=circle (DESIGN §19): Circle's settings, refused with one line naming every missing
// variable; the entity secret from CIRCLE_ENTITY_SECRET or its file, and the x402 relay's gas-only
// key from FACILITATOR_KEY_FILE. No message quotes a secret.
import { ConfigError } from './config-error.js';
import { readSecretFile } from './secret-file.js';
import type { ConfigEnv } from './schema.js';
import type { CircleConfig } from './types.js';

type CircleEnv = Pick<
  ConfigEnv,
  | 'WALLET_PROVIDER'
  | 'CIRCLE_API_KEY'
  | 'CIRCLE_ENTITY_SECRET'
  | 'CIRCLE_ENTITY_SECRET_FILE'
  | 'CIRCLE_API_BASE'
  | 'CIRCLE_WALLET_SET_ID'
  | 'CIRCLE_BLOCKCHAIN'
  | 'CIRCLE_ACCOUNT_TYPE'
  | 'FACILITATOR_KEY_FILE'
>;

/** Circle's settings with WALLET_PROVIDER=circle; undefined with `self`. */
export function circleSettings(env: CircleEnv): Readonly<CircleConfig> | undefined {
  if (env.WALLET_PROVIDER !== 'circle') return undefined;
  if (env.CIRCLE_ENTITY_SECRET !== undefined && env.CIRCLE_ENTITY_SECRET_FILE !== undefined)
    throw new ConfigError('CIRCLE_ENTITY_SECRET and CIRCLE_ENTITY_SECRET_FILE are both set; set one of them');
  const missing = [
    ['CIRCLE_API_KEY', env.CIRCLE_API_KEY],
    ['CIRCLE_ENTITY_SECRET or CIRCLE_ENTITY_SECRET_FILE', env.CIRCLE_ENTITY_SECRET ?? env.CIRCLE_ENTITY_SECRET_FILE],
  ]
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw new ConfigError(`WALLET_PROVIDER=circle requires ${missing.join(', ')} (not set)`);
  const entitySecret =
    env.CIRCLE_ENTITY_SECRET ?? readSecretFile('CIRCLE_ENTITY_SECRET_FILE', env.CIRCLE_ENTITY_SECRET_FILE!, 'the entity secret');
  const facilitatorKeyHex =
    env.FACILITATOR_KEY_FILE === undefined ? undefined : readSecretFile('FACILITATOR_KEY_FILE', env.FACILITATOR_KEY_FILE, 'a private key');
  const settings = {
    apiKey: env.CIRCLE_API_KEY!,
    entitySecret: entitySecret.replace(/^0x/, ''),
    apiBase: env.CIRCLE_API_BASE.replace(/\/+$/, ''),
    walletSetId: env.CIRCLE_WALLET_SET_ID?.toLowerCase(),
    blockchain: env.CIRCLE_BLOCKCHAIN,
    accountType: env.CIRCLE_ACCOUNT_TYPE,
    facilitatorKeyHex,
  };
  return Object.freeze({
    ...settings,
    // A log line or a dump that serialises the configuration shows that the secrets are set, never them.
    toJSON: () => ({
      ...settings,
      apiKey: '[redacted]',
      entitySecret: '[redacted]',
      facilitatorKeyHex: settings.facilitatorKeyHex && '[redacted]',
    }),
  });
}
