import { Global, INestApplication, Injectable, Module } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument, OpenApiSpec } from './openapi-document';

/**
 * The document a running service serves at its `openapi.json` route, generated once, on first
 * request, from the app that serves it, so it lists exactly the routes this process has (optional
 * areas switched off by config are absent). A controller of the service injects this and returns
 * `document()`; startHttpApp (and the test harness, through applyPlatformHttpSetup) binds it.
 */
@Injectable()
export class ServedOpenApiDocument {
  private build?: () => OpenAPIObject;
  private built?: OpenAPIObject;

  bind(app: INestApplication, spec: OpenApiSpec): void {
    this.build = () => buildOpenApiDocument(app, spec);
    this.built = undefined;
  }

  document(): OpenAPIObject {
    if (!this.build) throw new Error('no OpenAPI spec bound: pass `openapi` in the HttpAppOptions');
    this.built ??= this.build();
    return this.built;
  }
}

/** Provides the served document to every module of an HTTP app (imported by PlatformModule). */
@Global()
@Module({ providers: [ServedOpenApiDocument], exports: [ServedOpenApiDocument] })
export class ServedOpenApiModule {}
