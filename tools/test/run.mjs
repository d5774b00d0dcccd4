// `npm test`: installs dependencies with npm ci when needed, provisions Chromium, Postgres and Redis
// once (see tools/dev/infra.mjs), then runs lint (module boundaries at error level), the
// typecheck, the build, the OpenAPI freshness check and every Jest project in every tier (unit, integration, e2e, Helm, image
// checks) against them. Exits non-zero when any step fails or the run leaves the work tree changed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from '../dev/ensure-deps.mjs';
import { ensureChromium, provisionInfra } from '../dev/infra.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const only = process.argv.slice(2);

function step(name, cmd, args, env = {}) {
  if (only.length && !only.includes(name)) return true;
  process.stdout.write(`\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  process.stdout.write(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return ok;
}

ensureDependencies(root);

// What the suites need beyond Postgres and Redis, provisioned (or refused) before anything runs.
let chromium;
try {
  chromium = ensureChromium();
} catch (e) {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}

/** `git status` of the work tree, or null outside a git checkout: npm test must not change it. */
function workTreeStatus() {
  const r = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? new Set(r.stdout.split('\n').filter(Boolean)) : null;
}
const statusBefore = workTreeStatus();

const infra = await provisionInfra({ purpose: 'test' });
const env = {
  DATABASE_URL: infra.databaseUrl,
  REDIS_URL: infra.redisUrl,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NODE_ENV: 'test',
  CHROMIUM_PATH: chromium,
};
mkdirSync(path.join(root, 'tmp'), { recursive: true });
const report = path.join(root, 'tmp', 'jest-report.json');

let ok = true;
try {
  // The module-boundary rule reads Nx's project graph: compute it fresh so lint never judges
  // imports against a stale graph (or skips the rule for lack of one).
  ok = step('project graph', bin('nx'), ['show', 'projects'], env) && ok;
  ok = step('lint', bin('eslint'), ['--max-warnings', '0', '.'], env) && ok;
  ok = step('typecheck', bin('tsc'), ['-p', 'tsconfig.typecheck.json', '--noEmit'], env) && ok;
  ok = step('build', bin('nx'), ['run-many', '-t', 'build', '--parallel=2', '--output-style=static'], env) && ok;
  // Each committed OpenAPI document must be what the code generates now (docs/api, npm run openapi).
  ok = step('openapi', process.execPath, [path.join(root, 'tools/dev/write-openapi.mjs'), '--check'], env) && ok;
  ok =
    step('jest', bin('jest'), ['-c', 'jest.config.js', '--ci', '--maxWorkers=2', '--json', `--outputFile=${report}`], env) &&
    ok;
} finally {
  await infra.stop();
}

// Everything the run generates belongs in ignored folders (tmp/, dist/, .data/).
const statusAfter = workTreeStatus();
const dirtied = statusBefore && statusAfter ? [...statusAfter].filter((line) => !statusBefore.has(line)) : [];
if (dirtied.length) {
  process.stdout.write(`\n=== clean work tree: FAILED, the run changed files git tracks or sees:\n${dirtied.map((l) => `  ${l}`).join('\n')}\n`);
  ok = false;
}

if (existsSync(report) && (!only.length || only.includes('jest'))) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  // A plain closing line CI can read regardless of the runner.
  process.stdout.write(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed\n`);
}
process.exit(ok ? 0 : 1);
