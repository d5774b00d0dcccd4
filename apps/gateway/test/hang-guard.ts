/** How long a test step may take before it fails as hung (far above any step's normal time). */
const HANG_GUARD_MS = 10_000;

/** `p`, or a failure naming `what` if it has not settled within the hang guard. */
export function withGuard<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${what}`)), HANG_GUARD_MS)));
  return Promise.race([p, guard]).finally(() => clearTimeout(timer));
}

/** Polls until `check` holds (the hang guard fails the test otherwise). */
export function eventually(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  return withGuard(
    what,
    (async () => {
      while (!(await check())) await new Promise((r) => setTimeout(r, 25));
    })(),
  );
}
