import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = join(__dirname, '../..');
export const CHART = 'k8s/charts/service';
export const SERVICES = ['gateway', 'iam', 'guardrails-admin', 'kb-api', 'evidence-review'] as const;
export const ENVS = ['base', 'staging', 'prod'] as const;
export type Service = (typeof SERVICES)[number];

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

export function helm(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['tools/k8s/helm.mjs', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

export function valuesFiles(service: Service, env: (typeof ENVS)[number]): string[] {
  const files = ['-f', `k8s/values/${service}.yaml`];
  if (env !== 'base') files.push('-f', `k8s/values/env/${env}/${service}.yaml`);
  return files;
}

const cache = new Map<string, K8sObject[]>();

/** `helm template` once per service × environment; later calls reuse the render. */
export function render(service: Service, env: (typeof ENVS)[number] = 'base'): K8sObject[] {
  const key = `${service}/${env}`;
  if (!cache.has(key)) {
    const r = helm(['template', service, CHART, ...valuesFiles(service, env)]);
    if (r.status !== 0) throw new Error(`helm template ${key} failed: ${r.stderr}`);
    cache.set(
      key,
      parseAllDocuments(r.stdout)
        .map((d) => d.toJSON() as K8sObject | null)
        .filter((o): o is K8sObject => o !== null),
    );
  }
  return cache.get(key)!;
}

export const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
