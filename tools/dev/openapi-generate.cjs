// Prints one service's OpenAPI document, generated from its module graph (Nest preview mode: no
// database, Redis or keys are touched). Run in a process of its own per service, since env is
// validated when the app module is imported:  node tools/dev/openapi-generate.cjs <app>
// Each app's src/openapi-spec.ts gives OPENAPI_SPEC (title, description, security schemes) and
// OPENAPI_ENV (the env that switches on every optional area, so the document lists every route).
const path = require('node:path');
const root = path.resolve(__dirname, '../..');
require(path.join(root, 'tools/swc-register.cjs'));
require('reflect-metadata');

const app = process.argv[2];
if (!/^[a-z-]+$/.test(app ?? '')) throw new Error('usage: openapi-generate.cjs <app>');
const { OPENAPI_SPEC, OPENAPI_ENV } = require(path.join(root, `apps/${app}/src/openapi-spec.ts`));
// Connection strings and key rings are required by env validation but never used in preview mode
// (no provider is instantiated), so placeholders do: an all-zero key is never a key of anything.
const placeholderKeyRing = `openapi:${Buffer.alloc(32).toString('base64')}`;
Object.assign(
  process.env,
  {
    NODE_ENV: 'test',
    DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
    REDIS_URL: 'redis://127.0.0.1:1',
    CRYPTO_KEYRING: placeholderKeyRing,
    SECRET_PEPPERS: placeholderKeyRing,
  },
  OPENAPI_ENV,
);
const { generateOpenApiDocument, serializeOpenApiDocument } = require('@platform/runtime');
const { AppModule } = require(path.join(root, `apps/${app}/src/app.module.ts`));

generateOpenApiDocument(AppModule, OPENAPI_SPEC).then(
  (doc) => process.stdout.write(serializeOpenApiDocument(doc)),
  (e) => {
    process.stderr.write(`${app}: ${e.stack ?? e}\n`);
    process.exit(1);
  },
);
