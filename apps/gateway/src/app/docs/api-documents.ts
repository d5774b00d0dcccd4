import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { request } from 'undici';
import { GatewayEnv } from '../../config/env';

/** The parts of an OpenAPI document the reference page reads itself (Swagger UI reads the rest). */
export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  servers?: Array<{ url?: string }>;
  paths?: Record<string, Record<string, { summary?: string }>>;
}

/** Where each service serves its OpenAPI document (generated from its code), relative to its own origin. */
export const API_DOCUMENTS = [
  { service: 'iam', upstream: 'UPSTREAM_IAM_URL', path: '/api/iam/openapi.json' },
  { service: 'kb-api', upstream: 'UPSTREAM_KB_URL', path: '/api/kb/openapi.json' },
  { service: 'guardrails-admin', upstream: 'UPSTREAM_GUARDRAILS_URL', path: '/guardrails/api/openapi.json' },
  { service: 'evidence-review', upstream: 'UPSTREAM_EVIDENCE_URL', path: '/evidence-risk-review/openapi.json' },
] as const;

export type ApiDocumentSource = (typeof API_DOCUMENTS)[number];

/**
 * Fetches each service's document from the service itself, so the reference always describes the
 * running version; a service whose API is switched off (or down) has none.
 */
@Injectable()
export class ApiDocuments {
  constructor(private readonly config: ConfigService<GatewayEnv, true>) {}

  source(file: string): ApiDocumentSource | undefined {
    return API_DOCUMENTS.find((d) => `${d.service}.json` === file);
  }

  async fetch(d: ApiDocumentSource): Promise<OpenApiDocument | null> {
    try {
      const r = await request(this.config.get(d.upstream, { infer: true }) + d.path, { headersTimeout: 2000, bodyTimeout: 2000 });
      if (r.statusCode !== 200) {
        await r.body.dump();
        return null;
      }
      return (await r.body.json()) as OpenApiDocument;
    } catch {
      return null;
    }
  }

  /** Every service with its document, or null where it serves none. */
  all(): Promise<Array<{ source: ApiDocumentSource; doc: OpenApiDocument | null }>> {
    return Promise.all(API_DOCUMENTS.map(async (source) => ({ source, doc: await this.fetch(source) })));
  }
}
