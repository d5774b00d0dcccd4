/**
 * A plain-looking record whose keys enumerate (in Object.keys, JSON.stringify, for…in) in the
 * order they were first set. Ordinary objects list integer-like keys ("2", "10") first and in
 * numeric order, which would break the promise that result maps follow input order for claim
 * and source ids such as "1", "2", "10". A proxy's ownKeys trap is the one place that order can
 * be controlled without changing the JSON shape.
 */
export function orderedRecord<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const target: Record<string, V> = {};
  const order: string[] = [];
  const remember = (key: string | symbol) => {
    if (typeof key === 'string' && !Object.prototype.hasOwnProperty.call(target, key))
      order.push(key);
  };
  const forget = (key: string | symbol) => {
    const at = typeof key === 'string' ? order.indexOf(key) : -1;
    if (at >= 0) order.splice(at, 1);
  };
  for (const [key, value] of entries) {
    remember(key);
    // Defined, not assigned: assigning "__proto__" (a claim or source id like any other) would set the prototype.
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
  // Assignments reach defineProperty too (the proxy is the receiver), so that trap sees every new key, except an
  // assignment to "__proto__" (the inherited setter takes it): results are built from their entries, never assigned so.
  return new Proxy(target, {
    ownKeys: (t) => [...order, ...Reflect.ownKeys(t).filter((k) => typeof k === 'symbol')],
    defineProperty: (t, key, descriptor) => {
      remember(key);
      return Reflect.defineProperty(t, key, descriptor);
    },
    deleteProperty: (t, key) => {
      forget(key);
      return Reflect.deleteProperty(t, key);
    },
  });
}
