// Writes the OpenAPI documents defined in code to docs/api/ (tests fail when they differ).
//   npm run openapi
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
require(path.join(root, 'tools/swc-register.cjs'));
// The documents import DTO constants, and DTO classes carry decorators that need the metadata API.
require('reflect-metadata');
const documents = {
  'evidence-review': () => require(path.join(root, 'apps/evidence-review/src/app/reviews/openapi.ts')).EVIDENCE_OPENAPI,
  iam: () => require(path.join(root, 'apps/iam/src/app/openapi.ts')).IAM_OPENAPI,
  'guardrails-admin': () => require(path.join(root, 'apps/guardrails-admin/src/app/api/openapi.ts')).GUARDRAILS_OPENAPI,
  'kb-api': () => require(path.join(root, 'apps/kb-api/src/app/openapi.ts')).KB_OPENAPI,
};
for (const [service, load] of Object.entries(documents)) {
  writeFileSync(path.join(root, `docs/api/${service}.openapi.json`), JSON.stringify(load(), null, 2) + '\n');
  process.stdout.write(`docs/api/${service}.openapi.json written\n`);
}
