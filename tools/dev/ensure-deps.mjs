// Installs dependencies when node_modules is missing. `npm ci` first (exact lock); some npm 11
// builds write lock files without other platforms' optional packages and then refuse them in
// `npm ci`, so fall back to `npm install`, which still follows the lock's pinned versions.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export function installDependencies(root) {
  const run = (args) => spawnSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' }).status === 0;
  if (run(['ci'])) return;
  process.stderr.write('npm ci refused the lock file; installing with npm install instead\n');
  if (!run(['install'])) throw new Error('dependency installation failed');
}

export function ensureDependencies(root) {
  if (existsSync(path.join(root, 'node_modules', '.bin', 'nx'))) return;
  process.stdout.write('Installing dependencies…\n');
  installDependencies(root);
}

if (process.argv[1] && process.argv[1].endsWith('ensure-deps.mjs')) {
  installDependencies(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'));
}
