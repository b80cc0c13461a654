// The only reader of process.env. Every setting is validated here, once, at start, so that a
// misconfigured service refuses to start with a message that names the variable at fault. The
// variables are declared once, in a schema (config/schema.ts); the README's table is generated
// from it (npm run docs:config).
export { loadConfig, withListeningPort } from './config/load-config.js';
export { ConfigError } from './config/config-error.js';
export { LOG_FORMATS } from './config/types.js';
export type { Config, GroupCommitConfig, LogFormat, Mode, RateLimitConfig, SanctionsConfig, TreasuryConfig } from './config/types.js';
