// Where webhooks may go. Live mode refuses destinations that resolve to loopback, private,
// shared, link-local, unique-local, multicast or reserved addresses (server-side request forgery),
// and IPv6 forms that carry an IPv4 address to a translator or tunnel (NAT64, 6to4, Teredo, SIIT,
// IPv4-compatible), since the IPv4 address inside may be an internal one. The check runs when an
// endpoint is created and again inside every delivery's connection: the `lookup` handed to the
// socket resolves anew and refuses any forbidden answer, so a name that resolves differently
// later (DNS rebinding) cannot reach an internal address, and `refuseForbiddenPeer` checks the
// address the socket actually reached (IP literals never go through a lookup) before a byte is
// sent. Sandbox mode allows them all (a receiver on 127.0.0.1 is how one tries webhooks out).
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
// An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address: BlockList checks it against the
// IPv4 rules above. The forms below reach an IPv4 address through a translator or a tunnel, so
// they are refused whole rather than trusted to a decoding of the address inside.
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::a.b.c.d)
  ['::ffff:0:0:0', 96], // SIIT IPv4-translated
  ['64:ff9b::', 96], // NAT64, well-known prefix
  ['64:ff9b:1::', 48], // NAT64, local-use prefix
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  FORBIDDEN.addSubnet(prefix, bits, 'ipv6');

/** True for an address webhooks may not be sent to in live mode (and for anything that is not an IP address). */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family === 6) return FORBIDDEN.check(address, 'ipv6');
  return true;
}

export class ForbiddenDestination extends Error {
  override name = 'ForbiddenDestination';
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (the guard's one way to the DNS, so tests can stand in for it). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface DestinationGuard {
  /** Resolves `hostname` (or takes it as an IP literal) and refuses it when any of its addresses is forbidden. */
  checkHost(hostname: string): Promise<ResolvedAddress[]>;
  /** A `lookup` for the delivery's socket: resolves again at connection time and hands it only addresses it checked. */
  lookup: LookupFunction;
}

const resolveWithSystem: ResolveHost = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export function createDestinationGuard(deps: { resolve?: ResolveHost } = {}): DestinationGuard {
  const resolve = deps.resolve ?? resolveWithSystem;
  const checkHost = async (hostname: string): Promise<ResolvedAddress[]> => {
    const host = hostname.replace(/^\[|\]$/g, '');
    const family = net.isIP(host);
    const addresses = family !== 0 ? [{ address: host, family }] : [...(await resolve(host))];
    if (addresses.length === 0) throw new ForbiddenDestination(`${host} has no address`);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad && family !== 0) throw new ForbiddenDestination(`${host} is a loopback, private or reserved address`);
    if (bad) throw new ForbiddenDestination(`${host} resolves to ${bad.address}, a loopback, private or reserved address`);
    return addresses;
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    checkHost(hostname).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
  return { checkHost, lookup };
}

/**
 * Destroys `socket` as soon as it connects if the address it reached is forbidden. Node's HTTP
 * client hands a request its socket (the 'socket' event) before it writes anything to it, and a
 * connecting socket keeps writes for its own later 'connect' listener: registered there, this
 * runs first, so nothing of the request reaches a forbidden peer.
 */
export function refuseForbiddenPeer(socket: net.Socket): void {
  socket.once('connect', () => {
    const peer = socket.remoteAddress ?? '';
    if (isForbiddenAddress(peer)) socket.destroy(new ForbiddenDestination(`connected to ${peer}, a loopback, private or reserved address`));
  });
}
