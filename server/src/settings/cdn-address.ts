/**
 * Which addresses the CDN check may connect to (docs/admin-api.md#checking-the-cdn): public
 * ones only, so that an admin's check cannot reach this machine, its private network or a cloud
 * metadata service, unless the operator lists them in CDN_CHECK_ALLOW_ADDRESSES. The name is
 * resolved once per connection and the connection goes to the address that was checked, so a
 * name that resolves differently the second time gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Not the public internet: this host, private networks, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, documentation, benchmarking, multicast and reserved
 * ranges. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are matched as their IPv4 address. */
const notPublic: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 96, 'ipv6'], // unspecified, loopback and the old IPv4-compatible form
  ['64:ff9b::', 96, 'ipv6'], // NAT64: reaches whichever IPv4 address it embeds
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'], // 6to4: embeds an IPv4 address too
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const blocked = new BlockList();
for (const [network, prefix, family] of notPublic) blocked.addSubnet(network, prefix, family);

/** The operator's CDN_CHECK_ALLOW_ADDRESSES (addresses and CIDR ranges, checked by config.ts). */
export function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** Whether the check may connect to `address` (an IP address as text). */
export function mayConnect(address: string, allowed: BlockList): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return allowed.check(address, family) || !blocked.check(address, family);
}

/** A connection refused before it was made: the address is not public and not allowed. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = 'EADDRNOTPUBLIC';
}

export const refusedMessage = (host: string) =>
  `${host} is not a public address (loopback, private, link-local or reserved); ` +
  'list it in CDN_CHECK_ALLOW_ADDRESSES to check a CDN on a private network';

/** A `lookup` for http.request that answers only addresses the check may connect to: every
 * address the name resolves to is checked, and one that is not allowed refuses the name. */
export function guardedLookup(allowed: BlockList): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, '', 0);
      if (addresses.length === 0 || addresses.some(({ address }) => !mayConnect(address, allowed))) {
        return callback(new AddressRefusedError(refusedMessage(hostname)), '', 0);
      }
      if (options.all === true) return (callback as (e: null, all: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
