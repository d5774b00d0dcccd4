import type { ApiDocumentSource, OpenApiDocument } from './api-documents';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The policy of the reference page: Swagger UI runs from this gateway's own assets (no CDN, no
 * inline script), styles its elements inline, and calls only this origin (documents, try-it-out).
 */
export const REFERENCE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The full URL path of an operation: a document's server path (if any) joined to the operation's path with one slash. */
export const operationPath = (base: string | undefined, path: string) => `${(base ?? '').replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;

/** The index of one service: title, version, description, and every operation (readable without JavaScript). */
function serviceSection(source: ApiDocumentSource, doc: OpenApiDocument | null): string {
  if (!doc) return `<h2>${source.service}</h2><p class="off">Not available: the service does not serve its API here (switched off or down).</p>`;
  const base = doc.servers?.[0]?.url;
  const rows = Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
    METHODS.filter((m) => ops[m]).map(
      (m) => `<tr><td class="m">${m}</td><td><code>${escape(operationPath(base, path))}</code></td><td>${escape(ops[m].summary ?? '')}</td></tr>`,
    ),
  );
  return `<h2>${escape(doc.info?.title ?? source.service)} <small>${escape(doc.info?.version ?? '')}</small></h2>
<p>${escape(doc.info?.description ?? '')}</p>
<p><a href="/docs/openapi/${source.service}.json">OpenAPI document (JSON)</a></p>
<details><summary>${rows.length} operations</summary><table><thead><tr><th>Method</th><th>Path</th><th>Summary</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

/**
 * The reference page: Swagger UI over every available document (schemas, examples, try-it-out with
 * a bearer token through this gateway), and below it a plain index of the services and operations.
 * The documents to show travel in a data attribute, read by /docs/reference.js.
 */
export function renderReferencePage(services: Array<{ source: ApiDocumentSource; doc: OpenApiDocument | null }>): string {
  const urls = services.filter((s) => s.doc).map((s) => ({ name: s.doc!.info?.title ?? s.source.service, url: `/docs/openapi/${s.source.service}.json` }));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platform API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="stylesheet" href="/docs/docs.css"></head>
<body><main>
<h1>Platform API reference</h1>
<p>Every route below is reached through this gateway. Pick a service at the top right; <strong>Authorize</strong> takes a bearer token (an iam access token or a knowledge-base personal access token) for <em>Try it out</em>. The identity service is standard OAuth 2.0 / OpenID Connect: see <a href="/.well-known/openid-configuration">its discovery document</a>.</p>
<div id="swagger-ui" data-urls="${escape(JSON.stringify(urls))}"></div>
<section class="index"><h2>Services</h2>
${services.map((s) => serviceSection(s.source, s.doc)).join('\n')}
</section>
</main>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script><script src="/docs/reference.js"></script>
</body></html>`;
}

/** Starts Swagger UI on the documents the page lists (served as a file: the page allows no inline script). */
export const REFERENCE_SCRIPT = `(function () {
  var root = document.getElementById('swagger-ui');
  var urls = JSON.parse(root.getAttribute('data-urls') || '[]');
  if (!urls.length) return;
  window.ui = SwaggerUIBundle({
    urls: urls,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false
  });
})();
`;

export const REFERENCE_STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a}
main>h1,main>p,.index{max-width:72rem;margin:1rem auto;padding:0 1rem}h1{font-size:1.6rem}
.index h2{margin-top:2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eee;vertical-align:top}code{font-size:.9em}
.m{font-weight:600;text-transform:uppercase;width:4.5rem}.off{color:#8a5a00}`;
