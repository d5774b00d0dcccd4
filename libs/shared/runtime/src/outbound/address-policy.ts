import { BlockList, isIP } from 'node:net';

/** Ranges no outbound fetch may reach unless allowed: loopback, private, link-local, shared, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** `::ffff:10.0.0.1` is 10.0.0.1. */
const unmapped = (address: string) => {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
};

/**
 * Which hosts and addresses a server-side fetch of a caller-chosen URL may reach (SSRF guard):
 * public addresses always, private ones only when the allow-list names the host, the address or
 * a range containing it.
 */
export class AddressPolicy {
  private readonly allowedRanges = new BlockList();
  private readonly allowedHosts = new Set<string>();

  constructor(allowList: string[]) {
    for (const entry of allowList) {
      const [addr, prefix] = entry.split('/');
      const family = isIP(addr);
      if (family === 0) this.allowedHosts.add(entry.toLowerCase());
      else if (prefix !== undefined) this.allowedRanges.addSubnet(addr, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
      else this.allowedRanges.addAddress(addr, family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** Whether `address` (resolved for `host`) may be connected to. */
  permits(host: string, address: string): boolean {
    const a = unmapped(address);
    const family = isIP(a) === 6 ? 'ipv6' : 'ipv4';
    if (!PRIVATE.check(a, family)) return true;
    return this.allowedHosts.has(host.toLowerCase()) || this.allowedRanges.check(a, family);
  }
}
