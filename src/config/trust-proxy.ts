// TRUST_PROXY: a list the schema takes as text, read here into what Fastify's trustProxy accepts.
import net from 'node:net';
import { ConfigError } from './config-error.js';

/** proxy-addr's names for address ranges, which Fastify's trustProxy accepts in a list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset or false, true, or a comma-separated list of addresses, CIDRs and proxy-addr's
 * range names. A bare hop count is refused: Fastify 5.12 no longer honours one (it trusts nothing,
 * because a hop count cannot tell the proxy from a client that connects directly and writes its
 * own X-Forwarded-For), so accepting it would start a service that silently ignores the setting.
 */
export function trustProxy(value: string): boolean | readonly string[] {
  const raw = value.trim();
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY cannot be a hop count (${raw}): Fastify ignores hop counts because they let direct clients spoof X-Forwarded-For; list the proxies' addresses or CIDRs instead`,
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isTrustProxyEntry(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, or a comma-separated list of IP addresses, CIDRs and loopback/linklocal/uniquelocal; "${entry}" is none of these`,
      );
    }
  }
  return Object.freeze(entries);
}

function isTrustProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.includes(entry)) return true;
  const slash = entry.indexOf('/');
  if (slash === -1) return net.isIP(entry) !== 0;
  const version = net.isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}
