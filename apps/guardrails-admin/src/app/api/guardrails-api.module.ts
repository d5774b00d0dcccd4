import { CanActivate, DynamicModule, Module } from '@nestjs/common';
import { MODULE_PATH } from '@nestjs/common/constants';
import { RouterModule } from '@nestjs/core';
import { AuthModule } from '@platform/auth';
import { Clock } from '@platform/runtime';
import type { GuardrailsApiSettings } from '../../config/guardrails-admin-config';
import { resolveApiMiddleware } from './api-access';
import { API_MIDDLEWARE, ApiMiddlewareGuard } from './api-middleware.guard';
import { GuardrailsApiController } from './guardrails-api.controller';
import { GuardrailsOpenApiController } from './openapi.controller';

@Module({})
export class GuardrailsApiModule {
  /**
   * The routes exist only when `api.enabled`; they are mounted under `api.prefix`. An enabled API
   * with no middleware refuses to boot (resolveApiMiddleware throws while the module graph is built).
   */
  static register(config: GuardrailsApiSettings): DynamicModule[] {
    const middleware = resolveApiMiddleware(config.middleware, config.enabled);
    if (!config.enabled) return [];
    const api: DynamicModule = {
      module: GuardrailsApiModule,
      imports: [AuthModule.forRoot({ clock: Clock })],
      controllers: [GuardrailsApiController, GuardrailsOpenApiController],
      providers: [
        { provide: API_MIDDLEWARE, inject: middleware, useFactory: (...guards: CanActivate[]) => guards },
        ApiMiddlewareGuard,
      ],
    };
    // RouterModule mounts the routes of a running app under the prefix. It records the path when it
    // is instantiated, which the OpenAPI generator's preview scan never does; the module's own path
    // metadata (the fallback both Nest's router and @nestjs/swagger read) carries it there too, so
    // the generated document lists the URLs clients call.
    Reflect.defineMetadata(MODULE_PATH, `/${config.prefix.replace(/^\/+|\/+$/g, '')}`, GuardrailsApiModule);
    return [api, RouterModule.register([{ path: config.prefix, module: GuardrailsApiModule }])];
  }
}
