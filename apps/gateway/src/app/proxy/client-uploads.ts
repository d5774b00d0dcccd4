import { isIPv6 } from 'node:net';

/** A client already has as many uploads holding connections to the upstream as it may. */
export class TooManyUploadsError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/**
 * The key an address is counted under: an IPv4 address as it is, an IPv6 address by its /64
 * prefix (one customer's network: an attacker holding a /64 has 2^64 addresses, a customer rarely
 * fewer), an IPv4-mapped IPv6 address as its IPv4 address.
 */
export function clientKey(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * For one upstream: how many requests from each client (see clientKey) hold a pooled connection
 * while their body is still arriving (a body larger than the gateway reads ahead streams to the
 * upstream as the client sends it). At most `perClient` each, so one client, however many
 * connections it opens, cannot spend the pool on uploads it sends slowly; other clients keep
 * theirs. (How many such uploads all clients hold together is bounded by the proxy's upload slots.)
 */
export class ClientUploads {
  private readonly active = new Map<string, number>();

  constructor(readonly perClient: number) {}

  get addresses(): number {
    return this.active.size;
  }

  /** Takes one of the client's places; throws TooManyUploadsError when none is left. Returns a release (safe to call more than once). */
  hold(address: string): () => void {
    const key = clientKey(address);
    const count = this.active.get(key) ?? 0;
    if (count >= this.perClient) throw new TooManyUploadsError(`this client already has ${this.perClient} uploads in progress to this service`);
    this.active.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(key) ?? 1) - 1;
      if (left > 0) this.active.set(key, left);
      else this.active.delete(key);
    };
  }
}
