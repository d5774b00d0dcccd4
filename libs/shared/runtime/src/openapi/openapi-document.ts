import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/**
 * What a service says about its API beyond what its controllers and DTOs say: the document's
 * title and description, its security schemes and tags. Everything else in the document (paths,
 * parameters, bodies, responses, schemas) is generated from the module graph, so the DTO stays
 * the only contract of an HTTP edge.
 */
export interface OpenApiSpec {
  title: string;
  version: string;
  description: string;
  /** Security schemes by name (e.g. `bearer`: an iam access token). */
  securitySchemes?: Record<string, SecuritySchemeSpec>;
  /** The schemes every operation requires unless it says otherwise (`@ApiPublic()` says none). */
  defaultSecurity?: string[];
  tags?: Array<{ name: string; description: string }>;
}

export type SecuritySchemeSpec =
  | { type: 'http'; scheme: 'bearer' | 'basic'; bearerFormat?: string; description?: string }
  | { type: 'apiKey'; in: 'header' | 'cookie' | 'query'; name: string; description?: string };

/** `Controller_method` ids: stable across runs, unique per operation, readable in generated clients. */
const operationId = (controllerKey: string, methodKey: string) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`;

/** The OpenAPI 3.1 document of an app whose modules are scanned (booted or in preview). */
export function buildOpenApiDocument(app: INestApplication, spec: OpenApiSpec): OpenAPIObject {
  const builder = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle(spec.title).setVersion(spec.version).setDescription(spec.description);
  for (const [name, scheme] of Object.entries(spec.securitySchemes ?? {})) builder.addSecurity(name, scheme);
  for (const name of spec.defaultSecurity ?? []) builder.addSecurityRequirements(name);
  for (const tag of spec.tags ?? []) builder.addTag(tag.name, tag.description);
  return SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: operationId });
}

/**
 * Generates an app's document without connecting to anything: Nest's preview mode scans the
 * module graph (controllers, routes, DTO metadata) but instantiates no provider, so no database,
 * Redis or key material is needed. Env validation still runs when the root module is imported, so
 * the caller sets a valid env first (and turns on every optional area it wants documented).
 */
export async function generateOpenApiDocument(rootModule: Type<unknown>, spec: OpenApiSpec): Promise<OpenAPIObject> {
  const app = await NestFactory.create(rootModule, { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app, spec);
  } finally {
    await app.close();
  }
}

/** The committed form of a document (docs/api/<service>.openapi.json): two-space JSON and a final newline. */
export const serializeOpenApiDocument = (doc: OpenAPIObject): string => `${JSON.stringify(doc, null, 2)}\n`;
