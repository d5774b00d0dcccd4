import type { OnApplicationShutdown, Type } from '@nestjs/common';
import { IAuthModuleOptions, PassportStrategy } from '@nestjs/passport';
import passport from 'passport';

/** A strategy object registered under a name only it has (see `registerInstance`). */
export interface RegisteredStrategy {
  readonly instanceName: string;
}

let registered = 0;

/**
 * Registers one strategy object under a name unique to it, beside its passport name (`jwt`,
 * `kb-session`, …). Passport keeps one registry per process, keyed by name: two apps in one process
 * (tests boot services side by side with different settings) would otherwise both authenticate
 * with whichever app registered `jwt` last. A guard names the instances of its own app.
 */
export function registerInstance(strategy: passport.Strategy, name: string): string {
  const instanceName = `${name}#${++registered}`;
  passport.use(instanceName, strategy);
  return instanceName;
}

/** Forgets an instance name once its app has shut down. */
export function unregisterInstance(instanceName: string): void {
  passport.unuse(instanceName);
}

/**
 * AuthGuard options that authenticate with these strategy objects, in order (the first to accept
 * wins), and never open a passport session: every request carries its credential.
 */
export function authenticateWith(...strategies: RegisteredStrategy[]): IAuthModuleOptions {
  const names = strategies.map((s) => s.instanceName);
  return { defaultStrategy: names.length === 1 ? names[0] : names, session: false };
}

/**
 * The credential a guard's AuthGuard left on the request under `property` (getAuthenticateOptions),
 * taken off it: the gates read it once, and handlers see only what the guard derives from it.
 * Cleared rather than deleted: a delete turns the request object into a slow dictionary for the
 * rest of its life.
 */
export function takeCredential<T>(req: object, property: string): T {
  const holder = req as Record<string, unknown>;
  const credential = holder[property] as T;
  holder[property] = undefined;
  return credential;
}

/**
 * `PassportStrategy(Strategy, name)` whose every object is also registered under its own instance
 * name, and leaves the registry once its app has shut down. Not earlier (onModuleDestroy): a
 * closing app still answers requests while it drains, until its HTTP server has closed, and those
 * requests authenticate through this registry.
 */
export function AppPassportStrategy<T extends Type<unknown>>(Strategy: T, name: string) {
  const Base = PassportStrategy(Strategy, name) as unknown as Type<passport.Strategy>;
  class Registered extends Base implements RegisteredStrategy, OnApplicationShutdown {
    readonly instanceName = registerInstance(this, name);

    onApplicationShutdown(): void {
      unregisterInstance(this.instanceName);
      // The passport name stays with whichever app registered it last.
      if ((passport as unknown as { _strategy(n: string): unknown })._strategy(name) === this) passport.unuse(name);
    }
  }
  return Registered as unknown as new (...args: ConstructorParameters<ReturnType<typeof PassportStrategy<T>>>) => InstanceType<ReturnType<typeof PassportStrategy<T>>> & RegisteredStrategy & OnApplicationShutdown;
}
