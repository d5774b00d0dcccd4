// Writes the OpenAPI documents defined in code to docs/api/ (tests fail when they differ).
//   npm run openapi
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
require(path.join(root, 'tools/swc-register.cjs'));
const { EVIDENCE_OPENAPI } = require(path.join(root, 'apps/evidence-review/src/app/reviews/openapi.ts'));
writeFileSync(path.join(root, 'docs/api/evidence-review.openapi.json'), JSON.stringify(EVIDENCE_OPENAPI, null, 2) + '\n');
process.stdout.write('docs/api/evidence-review.openapi.json written\n');
