// The rules that tie one variable to another, checked once every variable has passed the schema.
import { ConfigError } from './config-error.js';
import type { ConfigEnv } from './schema.js';

/** /metrics on a listener of its own needs a port of its own. */
export function checkMetricsPort(env: Pick<ConfigEnv, 'PORT' | 'METRICS_PORT'>): void {
  if (env.METRICS_PORT === env.PORT) throw new ConfigError(`METRICS_PORT must differ from PORT (both are ${env.PORT})`);
}

/** The embedded chain is started with chain id 137; another one needs a chain of its own. */
export function checkEmbeddedChainId(env: Pick<ConfigEnv, 'CHAIN_RPC_URL' | 'CHAIN_ID'>): void {
  if (env.CHAIN_RPC_URL === undefined && env.CHAIN_ID !== 137)
    throw new ConfigError('CHAIN_ID must be 137 for the embedded chain (set CHAIN_RPC_URL for another chain)');
}

/** DESIGN §11: live mode starts only with all of these. Every missing one is named, in one line. */
export function checkLiveRequirements(env: ConfigEnv, masterSeedHex: string | undefined): void {
  if (env.PEERPAY_MODE !== 'live') return;
  const missing = [
    ['DATABASE_URL', env.DATABASE_URL],
    ['CHAIN_RPC_URL', env.CHAIN_RPC_URL],
    ['USDC_ADDRESS', env.USDC_ADDRESS],
    ['EURC_ADDRESS', env.EURC_ADDRESS],
    ['MASTER_SEED or MASTER_SEED_FILE', masterSeedHex],
    ['PUBLIC_URL', env.PUBLIC_URL],
    ['STRIPE_SECRET_KEY', env.STRIPE_SECRET_KEY],
    ['STRIPE_WEBHOOK_SECRET', env.STRIPE_WEBHOOK_SECRET],
  ]
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw new ConfigError(`PEERPAY_MODE=live requires ${missing.join(', ')} (not set)`);
}

/** An external chain has no sandbox tokens: its token contracts are named. */
export function checkTokenAddresses(env: Pick<ConfigEnv, 'CHAIN_RPC_URL' | 'USDC_ADDRESS' | 'EURC_ADDRESS'>): void {
  if (env.CHAIN_RPC_URL === undefined) return;
  if (env.USDC_ADDRESS === undefined) throw new ConfigError('USDC_ADDRESS is required with CHAIN_RPC_URL');
  if (env.EURC_ADDRESS === undefined) throw new ConfigError('EURC_ADDRESS is required with CHAIN_RPC_URL');
}

/** A hot wallet's floor is not above its ceiling, and a ceiling says where the excess goes. */
export function checkHotWalletBounds(
  env: Pick<ConfigEnv, 'COLD_WALLET_ADDRESS'>,
  minMinor: Readonly<Partial<Record<'USDC' | 'EURC', bigint>>>,
  maxMinor: Readonly<Partial<Record<'USDC' | 'EURC', bigint>>>,
): void {
  for (const token of ['USDC', 'EURC'] as const) {
    const [min, max] = [minMinor[token], maxMinor[token]];
    if (min !== undefined && max !== undefined && min > max)
      throw new ConfigError(`HOT_WALLET_MIN_${token} must not be above HOT_WALLET_MAX_${token}`);
  }
  if (Object.keys(maxMinor).length > 0 && env.COLD_WALLET_ADDRESS === undefined)
    throw new ConfigError('HOT_WALLET_MAX_USDC and HOT_WALLET_MAX_EURC need COLD_WALLET_ADDRESS (where the excess goes)');
}
