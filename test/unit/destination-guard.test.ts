// Live mode's webhook destination guard: which addresses it refuses (IPv6 forms that carry an
// IPv4 address included), that it resolves through the resolver it is given, and that a socket
// reaching a forbidden peer sends nothing.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createDestinationGuard, isForbiddenAddress, refuseForbiddenPeer, type ResolveHost } from '../../src/events/destination-guard.js';

describe('isForbiddenAddress', () => {
  it.each([
    // IPv4-compatible (::/96): the unspecified address, loopback, and any IPv4 address written inside
    ['::/96', ['::', '::1', '::127.0.0.1', '::8.8.8.8', '::a00:1']],
    // IPv4-mapped: the IPv4 address itself, checked as such
    ['::ffff:0:0/96 onto internal IPv4', ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '::ffff:169.254.169.254']],
    // SIIT IPv4-translated
    ['::ffff:0:0:0/96', ['::ffff:0:7f00:1', '::ffff:0:808:808', '::ffff:0:0:0']],
    ['64:ff9b::/96 NAT64', ['64:ff9b::7f00:1', '64:ff9b::8.8.8.8', '64:ff9b::a9fe:a9fe']],
    ['64:ff9b:1::/48 local NAT64', ['64:ff9b:1::1', '64:ff9b:1:ffff:ffff::7f00:1']],
    ['2002::/16 6to4', ['2002:7f00:1::1', '2002:808:808::1', '2002::']],
    ['2001::/32 Teredo', ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff']],
    ['other internal IPv6', ['fd00::1', 'fe80::1', 'ff02::1', '100::1', '2001:db8::1']],
    [
      'internal IPv4',
      ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255'],
    ],
    ['not an IP address', ['localhost', '', '1.2.3', '::ffff:999.0.0.1']],
  ])('refuses %s', (_range, addresses) => {
    for (const address of addresses) expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('allows public addresses, next to the refused ranges included', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '::ffff:8.8.8.8', // IPv4-mapped onto a public address is that public address
      '2606:4700:4700::1111',
      '2001:1::1', // just past Teredo's /32
      '2003::1', // just past 6to4
      '64:ff9b:2::1', // just past the local NAT64 /48
      '64:ff9c::1',
      '1::1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });
});

describe('createDestinationGuard', () => {
  const answering =
    (answers: Record<string, string[]>): ResolveHost =>
    async (hostname) =>
      (answers[hostname] ?? []).map((address) => ({ address, family: net.isIP(address) }));

  it('resolves through the resolver it is given and refuses a name with any forbidden address', async () => {
    const guard = createDestinationGuard({
      resolve: answering({ 'hooks.example.test': ['93.184.216.34'], 'mixed.example.test': ['93.184.216.34', '2002:7f00:1::1'] }),
    });
    expect(await guard.checkHost('hooks.example.test')).toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(guard.checkHost('mixed.example.test')).rejects.toThrow(/resolves to 2002:7f00:1::1/);
    await expect(guard.checkHost('nothing.example.test')).rejects.toThrow(/has no address/);
    await expect(guard.checkHost('[64:ff9b::7f00:1]')).rejects.toThrow(/loopback, private or reserved/);
  });

  it('its lookup resolves anew on every connection: a name rebound to loopback after a check is refused', async () => {
    let address = '93.184.216.34';
    const guard = createDestinationGuard({ resolve: async () => [{ address, family: 4 }] });
    await guard.checkHost('rebind.example.test');
    address = '127.0.0.1';
    const answer = await new Promise<{ error: Error | null; addresses: unknown }>((resolve) =>
      guard.lookup('rebind.example.test', { all: true }, (error, addresses) => resolve({ error, addresses })),
    );
    expect(answer.error?.message).toMatch(/resolves to 127\.0\.0\.1/);
  });
});

describe('refuseForbiddenPeer', () => {
  it('closes a socket that reached a forbidden address before the request it carries is sent', async () => {
    let bytes = 0;
    const listener = net.createServer((socket) => socket.on('data', (chunk) => (bytes += chunk.length)).on('error', () => {}));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', agent: false });
    request.on('socket', refuseForbiddenPeer);
    const error = await new Promise<Error>((resolve) => {
      request.on('error', resolve);
      request.end('{"secret":"data"}');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    expect(error.message).toMatch(/connected to 127\.0\.0\.1, a loopback, private or reserved address/);
    expect(bytes).toBe(0);
  });
});
