// Installs dependencies with `npm ci`, exactly as package-lock.json pins them, whenever
// node_modules is missing or was installed from another lock. It never rewrites the lock: when
// package.json and package-lock.json disagree it stops and says how to fix it (a lock is changed
// on purpose, by a person, and committed; an install step that "repairs" it leaves the work tree
// dirty and installs versions nobody reviewed).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Written into node_modules after a successful install: the lock it came from.
const STAMP = '.platform-lock-sha256';

export class LockOutOfSyncError extends Error {}

function lockDigest(root) {
  return createHash('sha256').update(readFileSync(path.join(root, 'package-lock.json'))).digest('hex');
}

export function installedFromCurrentLock(root) {
  const stamp = path.join(root, 'node_modules', STAMP);
  if (!existsSync(path.join(root, 'node_modules', '.bin', 'nx')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === lockDigest(root);
}

export function installDependencies(root) {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (r.stderr) process.stderr.write(r.stderr);
  if (r.status === 0) {
    writeFileSync(path.join(root, 'node_modules', STAMP), `${lockDigest(root)}\n`);
    return;
  }
  if (/can only install packages when your package\.json and package-lock\.json/.test(r.stderr ?? '')) {
    throw new LockOutOfSyncError(
      'package-lock.json is out of sync with package.json, so `npm ci` refuses it. Run `npm install` ' +
        '(it updates the lock for every platform), review the change and commit package-lock.json.',
    );
  }
  throw new Error(`npm ci failed (exit ${r.status ?? r.signal}); see its output above`);
}

export function ensureDependencies(root) {
  if (installedFromCurrentLock(root)) return;
  process.stdout.write('Installing dependencies (npm ci)…\n');
  try {
    installDependencies(root);
  } catch (e) {
    process.stderr.write(`\n${e.message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureDependencies(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'));
}
