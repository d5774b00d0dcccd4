import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { request } from 'undici';
import { GatewayEnv } from '../../config/env';

interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  servers?: Array<{ url?: string }>;
  paths?: Record<string, Record<string, { summary?: string }>>;
}

/** Where each service serves its OpenAPI document, relative to its own origin. */
const DOCUMENTS = [
  { service: 'iam', upstream: 'UPSTREAM_IAM_URL', path: '/api/iam/openapi.json' },
  { service: 'kb-api', upstream: 'UPSTREAM_KB_URL', path: '/api/kb/openapi.json' },
  { service: 'guardrails-admin', upstream: 'UPSTREAM_GUARDRAILS_URL', path: '/guardrails/api/openapi.json' },
  { service: 'evidence-review', upstream: 'UPSTREAM_EVIDENCE_URL', path: '/evidence-risk-review/openapi.json' },
] as const;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eee;vertical-align:top}code{font-size:.9em}
.m{font-weight:600;text-transform:uppercase;width:4.5rem}.off{color:#8a5a00}`;

/**
 * One API reference for frontend teams: every service's OpenAPI document, fetched from the service
 * itself (so it is always the running version) and listed on /docs; each document is also served
 * at /docs/openapi/<service>.json. A service whose API is switched off is shown as unavailable.
 */
@Controller('docs')
export class ApiDocsController {
  constructor(private readonly config: ConfigService<GatewayEnv, true>) {}

  private async fetchDocument(d: (typeof DOCUMENTS)[number]): Promise<OpenApiDocument | null> {
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

  @Get('openapi/:file')
  async document(@Param('file') file: string, @Res() res: Response) {
    const d = DOCUMENTS.find((x) => `${x.service}.json` === file);
    if (!d) throw new NotFoundException(`no OpenAPI document ${file}`);
    const doc = await this.fetchDocument(d);
    if (!doc) throw new NotFoundException(`${d.service} does not serve its OpenAPI document (is its API enabled?)`);
    res.json(doc);
  }

  @Get('docs.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  style() {
    return STYLE;
  }

  @Get()
  async page(@Res() res: Response) {
    const sections = await Promise.all(
      DOCUMENTS.map(async (d) => {
        const doc = await this.fetchDocument(d);
        if (!doc) return `<h2>${d.service}</h2><p class="off">Not available: the service does not serve its API here (switched off or down).</p>`;
        const base = doc.servers?.[0]?.url ?? '';
        const rows = Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
          METHODS.filter((m) => ops[m]).map((m) => `<tr><td class="m">${m}</td><td><code>${escape(base + path)}</code></td><td>${escape(ops[m].summary ?? '')}</td></tr>`),
        );
        return `<h2>${escape(doc.info?.title ?? d.service)} <small>${escape(doc.info?.version ?? '')}</small></h2>
<p>${escape(doc.info?.description ?? '')}</p>
<p><a href="/docs/openapi/${d.service}.json">OpenAPI document (JSON)</a></p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
      }),
    );
    res
      .type('html')
      .setHeader('content-security-policy', "default-src 'none'; style-src 'self'; frame-ancestors 'none'")
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platform API reference</title><link rel="stylesheet" href="/docs/docs.css"></head><body><main>
<h1>Platform API reference</h1>
<p>Every route below is reached through this gateway. The identity service is standard OAuth 2.0 / OpenID Connect: see <a href="/.well-known/openid-configuration">its discovery document</a>.</p>
${sections.join('\n')}
</main></body></html>`);
  }
}
