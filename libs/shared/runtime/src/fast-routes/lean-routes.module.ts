import { CanActivate, ExceptionFilter, Injectable, Logger, Module, NestInterceptor, OnApplicationBootstrap, PipeTransform, Type } from '@nestjs/common';
import { BaseExceptionFilter, DiscoveryModule, DiscoveryService, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Express } from 'express';
import { FastRoute } from './fast-router';
import { leanAppSetupOf } from './lean-app-setup';
import { LEAN_ROUTE, LeanRouteOptions } from './lean-route.decorator';
import { buildLeanRoute, GlobalEnhancers } from './lean-route-handler';
import { mountFastRoutesInApp } from './mount-in-app';

type EnhancerKind = 'guard' | 'interceptor' | 'pipe' | 'filter';

/**
 * Mounts every @LeanRoute() controller method of the app on its HTTP server once the app has
 * started up (every instance exists, the platform's setup is recorded). Apps the platform did not
 * set up (no recorded pre-routing middleware, e.g. a bare test app) keep every route on Nest, which
 * answers them the same way; they still refuse at boot a method the lean path cannot serve.
 */
@Injectable()
export class LeanRoutesMounter implements OnApplicationBootstrap {
  private readonly logger = new Logger('LeanRoutes');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'express') return;
    const candidates = this.leanMethods();
    if (candidates.length === 0) return;
    const setup = leanAppSetupOf(adapter.getInstance<Express>());
    const globals: GlobalEnhancers = {
      guards: this.globalEnhancers<CanActivate>('guard'),
      interceptors: this.globalEnhancers<NestInterceptor>('interceptor'),
      // Those given to app.useGlobal*() come first, as Nest registers them before the container's.
      pipes: [...(setup?.pipes ?? []), ...this.globalEnhancers<PipeTransform>('pipe')],
      filters: [...(setup?.filters ?? []), ...this.globalEnhancers<ExceptionFilter>('filter')],
    };
    // Built even where they will not be mounted, so every app (a bare test app too) refuses at boot
    // a method the lean path could not serve exactly.
    const routes: FastRoute[] = candidates.map(({ instance, method, options }) =>
      buildLeanRoute(instance, method, options.accepts, {
        resolve: <T>(type: Type<T>) => this.moduleRef.get(type, { strict: false }),
        globals,
        prelude: setup?.prelude ?? [],
        adapter,
        fallbackFilter: new BaseExceptionFilter(adapter),
      }),
    );
    if (!setup?.prelude) {
      this.logger.debug('the app has no recorded pre-routing middleware: lean routes stay on Nest');
      return;
    }
    mountFastRoutesInApp(this.moduleRef, this.adapterHost, routes);
  }

  private leanMethods(): { instance: object; method: string; options: LeanRouteOptions }[] {
    const found: { instance: object; method: string; options: LeanRouteOptions }[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.metatype) continue;
      const proto = (wrapper.metatype as Type<unknown>).prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(proto)) {
        if (method === 'constructor' || typeof proto[method] !== 'function') continue;
        const options = Reflect.getMetadata(LEAN_ROUTE, proto[method] as object) as LeanRouteOptions | undefined;
        if (!options) continue;
        if (!wrapper.isDependencyTreeStatic()) throw new Error(`@LeanRoute() on ${wrapper.name}.${method}: the controller is request-scoped`);
        found.push({ instance, method, options });
      }
    }
    return found;
  }

  /** The app's APP_GUARD / APP_INTERCEPTOR / APP_PIPE / APP_FILTER providers, in registration order. */
  private globalEnhancers<T>(kind: EnhancerKind): T[] {
    return this.discovery
      .getProviders()
      .filter((w) => w.subtype === kind)
      .map((w) => {
        if (!w.isDependencyTreeStatic() || !w.instance) throw new Error(`lean routes cannot apply the request-scoped global ${kind} ${String(w.name)}`);
        return w.instance as T;
      });
  }
}

/** Serves the app's @LeanRoute() methods on the lean request path (imported by PlatformModule for HTTP apps). */
@Module({ imports: [DiscoveryModule], providers: [LeanRoutesMounter] })
export class LeanRoutesModule {}
