// Generates each service's OpenAPI document from its module graph (DTOs and controllers) and
// writes it to docs/api/<service>.openapi.json.
//   npm run openapi            write the documents
//   npm run openapi -- --check exit 1 when a committed document differs from a fresh generation (npm test runs this)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DOCUMENTED_SERVICES = ['iam', 'guardrails-admin', 'kb-api', 'evidence-review'];
const check = process.argv.includes('--check');

let stale = 0;
for (const service of DOCUMENTED_SERVICES) {
  const r = spawnSync(process.execPath, [path.join(root, 'tools/dev/openapi-generate.cjs'), service], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    process.stderr.write(r.stderr);
    process.exit(1);
  }
  const file = path.join(root, `docs/api/${service}.openapi.json`);
  if (!check) {
    writeFileSync(file, r.stdout);
    process.stdout.write(`docs/api/${service}.openapi.json written\n`);
    continue;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // A missing document is as stale as a changed one.
  }
  if (committed !== r.stdout) {
    stale++;
    process.stdout.write(`docs/api/${service}.openapi.json differs from the document generated from the code: run npm run openapi\n`);
  } else process.stdout.write(`docs/api/${service}.openapi.json is current\n`);
}
process.exit(stale ? 1 : 0);
