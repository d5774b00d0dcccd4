import { isIPv6 } from 'node:net';

/** A client address, or every client together, already has as many uploads holding connections to the upstream as it may. */
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
 * For one upstream: how many requests hold a pooled connection while their body is still arriving
 * (a body larger than the gateway reads ahead streams to the upstream as the client sends it). At
 * most `perClient` per client (see clientKey), so one client, however many connections it opens,
 * cannot spend the pool on uploads it sends slowly; and at most `total` together, so that neither
 * can a handful of clients: the rest of the pool always serves requests whose body is already in.
 */
export class ClientUploads {
  private readonly active = new Map<string, number>();
  private inFlight = 0;

  constructor(
    readonly perClient: number,
    readonly total: number,
  ) {}

  get addresses(): number {
    return this.active.size;
  }

  /** Takes one of the client's places; throws TooManyUploadsError when none is left. Returns a release (safe to call more than once). */
  hold(address: string): () => void {
    const key = clientKey(address);
    const count = this.active.get(key) ?? 0;
    if (count >= this.perClient) throw new TooManyUploadsError(`this client already has ${this.perClient} uploads in progress to this service`);
    if (this.inFlight >= this.total) throw new TooManyUploadsError(`this service already has ${this.total} uploads in progress; try again shortly`);
    this.active.set(key, count + 1);
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      const left = (this.active.get(key) ?? 1) - 1;
      if (left > 0) this.active.set(key, left);
      else this.active.delete(key);
    };
  }
}
