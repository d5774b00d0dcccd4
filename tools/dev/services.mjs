import { fileURLToPath } from 'node:url';

// The local topology `npm start` and the system tests run: one process per service (plus the
// BullMQ workers), each on its fixed loopback port, the gateway in front (ARCHITECTURE.md).
// `route` is the upstream's name in the gateway's route table; `resource` the path of its MCP server
// (OAUTH_RESOURCE is that path under the gateway's URL, as clients reach it).
export const SERVICES = [
  { name: 'iam', route: 'iam', port: 3001, database: 'iam', worker: { healthPort: 3101 } },
  { name: 'guardrails-admin', route: 'guardrails', port: 3002, database: 'guardrails' },
  { name: 'kb-api', route: 'kb', port: 3003, database: 'kb', worker: { healthPort: 3103 }, resource: '/mcp/kb' },
  { name: 'evidence-review', route: 'evidence', port: 3004, database: 'evidence', resource: '/evidence-risk-review/mcp' },
];

export const GATEWAY = { name: 'gateway', port: 8080 };

const databaseOf = (name) => process.env[`${name.toUpperCase()}_DATABASE_NAME`] ?? name;

/**
 * Per-service env for a local run: its database, a Redis prefix, and the demo switches on. The
 * system tests run a second platform beside a developer's: `offset` moves every port, and
 * `namespace` prefixes database names, Redis prefixes and channels so the two never meet.
 */
export function serviceEnv(service, { databaseUrl, redisUrl, gatewayUrl, secrets, offset = 0, namespace = '', extraEnv = {} }) {
  const base = {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    IAM_JWKS_URL: `http://127.0.0.1:${3001 + offset}/.well-known/jwks.json`,
    IAM_ISSUER: gatewayUrl,
    JWT_AUDIENCE: 'platform',
    ...secrets,
  };
  if (!service.database) return base;
  return {
    ...base,
    PORT: String(service.port + offset),
    DATABASE_NAME: namespace + databaseOf(service.database),
    REDIS_PREFIX: namespace + service.name,
    ...(service.worker ? { WORKER_HEALTH_PORT: String(service.worker.healthPort + offset) } : {}),
    ...(service.resource ? { OAUTH_RESOURCE: gatewayUrl + service.resource } : {}),
    // kb-api writes to the guardrails database; both hosts share the settings channel and the
    // approved-calls queue of this platform.
    KB_GUARDRAILS_DATABASE_NAME: namespace + databaseOf('guardrails'),
    GUARDRAILS_SETTINGS_CHANNEL: `${namespace}guardrails.SettingsChanged`,
    GUARDRAILS_QUEUE_PREFIX: `${namespace}guardrails`,
    // Features the spec switches off by default are switched on for the demo (ARCHITECTURE.md).
    EVIDENCE_API_ENABLED: 'true',
    IAM_OAUTH_CLIENT_SELFFETCH: 'true',
    GUARDRAILS_API_ENABLED: 'true',
    GUARDRAILS_HITL_REQUESTS_STORE: 'database',
    KB_PROMOTION_ENABLED: 'true',
    // The platform's own documentation, ingested as the knowledge base's demo documents.
    KB_DEMO_DOCUMENTS_DIR: fileURLToPath(new URL('../../docs', import.meta.url)),
    ...extraEnv,
  };
}

export function gatewayEnv({ port, offset = 0 }) {
  const env = { NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port) };
  for (const [key, svc] of [
    ['UPSTREAM_IAM_URL', 'iam'],
    ['UPSTREAM_GUARDRAILS_URL', 'guardrails-admin'],
    ['UPSTREAM_KB_URL', 'kb-api'],
    ['UPSTREAM_EVIDENCE_URL', 'evidence-review'],
  ]) {
    env[key] = `http://127.0.0.1:${SERVICES.find((s) => s.name === svc).port + offset}`;
  }
  return env;
}
