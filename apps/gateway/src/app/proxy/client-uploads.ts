/** A client address already has as many uploads holding connections to the upstream as it may. */
export class TooManyUploadsError extends Error {
  constructor(readonly perClient: number) {
    super(`this client already has ${perClient} uploads in progress to this service`);
  }
}

/**
 * For one upstream: how many requests from each client address hold a pooled connection while
 * their body is still arriving (a body larger than the gateway reads ahead streams to the upstream
 * as the client sends it). At most `perClient` each, so one address, however many connections it
 * opens, cannot spend the pool on uploads it sends slowly; other clients keep theirs.
 */
export class ClientUploads {
  private readonly active = new Map<string, number>();

  constructor(readonly perClient: number) {}

  get addresses(): number {
    return this.active.size;
  }

  /** Takes one of the address's places; throws TooManyUploadsError when none is left. Returns a release (safe to call more than once). */
  hold(address: string): () => void {
    const count = this.active.get(address) ?? 0;
    if (count >= this.perClient) throw new TooManyUploadsError(this.perClient);
    this.active.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(address) ?? 1) - 1;
      if (left > 0) this.active.set(address, left);
      else this.active.delete(address);
    };
  }
}
