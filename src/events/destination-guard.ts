// Where webhooks may go. Live mode refuses destinations that resolve to loopback, private,
// shared, link-local, unique-local, multicast or reserved addresses (server-side request forgery);
// the check runs when an endpoint is created and again inside every delivery's connection (the
// `lookup` handed to the HTTP client), which then connects to exactly the address it checked, so
// a name that resolves differently later (DNS rebinding) cannot reach an internal address.
// Sandbox mode allows them all (a receiver on 127.0.0.1 is how one tries webhooks out).
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

const FORBIDDEN = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(prefix, bits, 'ipv6');

/** True for an address webhooks may not be sent to in live mode. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible address reaches that IPv4 address.
  const mapped = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[2]!, 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const high = parseInt(hexMapped[1]!, 16);
    const low = parseInt(hexMapped[2]!, 16);
    return FORBIDDEN.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return FORBIDDEN.check(address, 'ipv6');
}

export class ForbiddenDestination extends Error {
  override name = 'ForbiddenDestination';
}

/** Resolves `hostname` and refuses it when any address it has is forbidden; returns the addresses. */
export async function checkHost(hostname: string): Promise<dns.LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [{ address: host, family: net.isIP(host) }]
    : await dns.promises.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new ForbiddenDestination(`${host} has no address`);
  const bad = addresses.find((a) => isForbiddenAddress(a.address));
  if (bad) throw new ForbiddenDestination(`${host} resolves to ${bad.address}, a loopback, private or reserved address`);
  return addresses;
}

/**
 * A `lookup` for http.request that resolves once, refuses forbidden addresses, and hands the
 * connection the address it checked (so the check and the connection see the same address).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  checkHost(hostname).then(
    (addresses) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    },
    (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
  );
};
