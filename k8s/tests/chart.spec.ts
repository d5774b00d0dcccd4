import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART, ENVS, helm, K8sObject, ofKind, render, ROOT, Service, SERVICES, valuesFiles } from './render';

type Container = {
  name: string;
  command: string[];
  args?: string[];
  securityContext: Record<string, unknown>;
  livenessProbe?: { httpGet: { path: string; port: string } };
  readinessProbe?: { httpGet: { path: string; port: string } };
  startupProbe?: { httpGet: { path: string } };
};
type PodSpec = { containers: Container[]; securityContext: Record<string, unknown>; restartPolicy?: string; terminationGracePeriodSeconds?: number };
const podOf = (o: K8sObject): PodSpec => {
  const spec = o.spec as { template?: { spec: PodSpec }; jobTemplate?: { spec: { template: { spec: PodSpec } } } };
  return spec.template?.spec ?? spec.jobTemplate!.spec.template.spec;
};

/** Kubernetes' OpenAPI schema, offline: each object is validated by its kubernetes-models class. */
function validateAgainstSchema(o: K8sObject): void {
  const group = o.apiVersion.includes('/') ? o.apiVersion : `v1`;
  const models = require(`kubernetes-models/${group}`) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[o.kind];
  if (!Model) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

describe('Helm chart k8s/charts/service', () => {
  it.each(SERVICES.flatMap((s) => ENVS.map((e) => [s, e] as const)))('lints strictly for %s (%s)', (service, env) => {
    const r = helm(['lint', CHART, '--strict', ...valuesFiles(service, env)]);
    expect(r.stderr + r.stdout).toContain('0 chart(s) failed');
    expect(r.status).toBe(0);
  });

  it.each(SERVICES.flatMap((s) => ENVS.map((e) => [s, e] as const)))(
    'renders objects that validate against the Kubernetes schema for %s (%s)',
    (service, env) => {
      const objects = render(service, env);
      expect(objects.length).toBeGreaterThan(3);
      for (const o of objects) expect(() => validateAgainstSchema(o)).not.toThrow();
    },
  );

  it('catches a schema violation in a rendered object (the validator is not a no-op)', () => {
    const [deployment] = ofKind(render('iam'), 'Deployment');
    const broken = JSON.parse(JSON.stringify(deployment)) as K8sObject;
    (broken.spec as Record<string, unknown>)['replicas'] = 'two';
    expect(() => validateAgainstSchema(broken)).toThrow(/replicas/);
  });

  it('rejects a wrongly typed value through values.schema.json', () => {
    const r = helm(['lint', CHART, '--strict', '-f', 'k8s/values/iam.yaml', '--set-string', 'replicaCount=two']);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/replicaCount/);
  });

  it('passes httpProcesses to the app as HTTP_PROCESSES and refuses fewer than one', () => {
    const configOf = (service: Service, env: (typeof ENVS)[number]) =>
      (ofKind(render(service, env), 'ConfigMap')[0] as K8sObject & { data: Record<string, string> }).data;
    for (const service of SERVICES) expect(configOf(service, 'base')['HTTP_PROCESSES']).toBe('1');
    expect(configOf('iam', 'prod')['HTTP_PROCESSES']).toBe('2');
    const r = helm(['lint', CHART, '--strict', '-f', 'k8s/values/iam.yaml', '--set', 'httpProcesses=0']);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/httpProcesses/);
  });

  describe.each(SERVICES)('%s', (service: Service) => {
    const objects = render(service);
    const api = ofKind(objects, 'Deployment').find((d) => !d.metadata.name.endsWith('-worker'))!;

    it('runs node main.js with probes on /health/live and /health/ready', () => {
      const [c] = podOf(api).containers;
      expect(c.command).toEqual(['node', 'main.js']);
      expect(c.livenessProbe!.httpGet.path).toBe('/health/live');
      expect(c.readinessProbe!.httpGet.path).toBe('/health/ready');
      expect(c.startupProbe!.httpGet.path).toBe('/health/live');
    });

    it('runs every container non-root with a read-only root filesystem and no capabilities', () => {
      for (const o of objects.filter((x) => ['Deployment', 'Job', 'CronJob'].includes(x.kind))) {
        const pod = podOf(o);
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
        for (const c of pod.containers) {
          expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
        }
      }
    });

    it('rolls pods when the config changes and gives them time to drain', () => {
      const annotations = (api.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;
      expect(annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
      const cm = ofKind(objects, 'ConfigMap')[0] as K8sObject & { data: Record<string, string> };
      expect(cm.data['HOST']).toBe('0.0.0.0');
      expect(podOf(api).terminationGracePeriodSeconds! * 1000).toBeGreaterThan(Number(cm.data['SHUTDOWN_GRACE_MS']) + 10_000);
    });

    it('has a worker Deployment only where the app has a worker', () => {
      const worker = ofKind(objects, 'Deployment').find((d) => d.metadata.name.endsWith('-worker'));
      if (service === 'iam' || service === 'kb-api') {
        expect(podOf(worker!).containers[0].command).toEqual(['node', 'worker.js']);
        expect(podOf(worker!).containers[0].readinessProbe!.httpGet).toEqual({ path: '/health/ready', port: 'health' });
      } else {
        expect(worker).toBeUndefined();
      }
    });

    it('migrates in a pre-install/pre-upgrade hook Job, except the gateway which has no database', () => {
      const jobs = ofKind(objects, 'Job');
      if (service === 'gateway') return expect(jobs).toHaveLength(0);
      expect(jobs).toHaveLength(1);
      expect(jobs[0].metadata.annotations).toMatchObject({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      const [c] = podOf(jobs[0]).containers;
      expect([...c.command, ...(c.args ?? [])]).toEqual(['node', 'cli.js', 'migrate']);
      expect(podOf(jobs[0]).restartPolicy).toBe('Never');
    });

    it('declares CronJobs that follow the conventions and name tasks its cli.ts knows', () => {
      const cli = readFileSync(join(ROOT, 'apps', service, 'src', 'cli.ts'), 'utf8');
      for (const cj of ofKind(objects, 'CronJob')) {
        expect(cj.spec).toMatchObject({
          concurrencyPolicy: 'Forbid',
          timeZone: 'Etc/UTC',
          successfulJobsHistoryLimit: 3,
          failedJobsHistoryLimit: 5,
        });
        expect(typeof (cj.spec as Record<string, unknown>)['startingDeadlineSeconds']).toBe('number');
        const job = (cj.spec as { jobTemplate: { spec: Record<string, unknown> } }).jobTemplate.spec;
        expect(job).toMatchObject({ backoffLimit: expect.any(Number), activeDeadlineSeconds: expect.any(Number), ttlSecondsAfterFinished: expect.any(Number) });
        const [c] = podOf(cj).containers;
        expect(c.command).toEqual(['node', 'cli.js']);
        expect(cli).toContain(`'${c.args![0]}'`);
      }
    });
  });

  it('gives iam its signing-key rotation CronJob', () => {
    const names = ofKind(render('iam'), 'CronJob').map((c) => c.metadata.name);
    expect(names).toContain('iam-rotate-signing-keys');
  });

  it('gives guardrails-admin its retention CronJob, run with an actor', () => {
    const [retention] = ofKind(render('guardrails-admin'), 'CronJob');
    expect(retention.metadata.name).toBe('guardrails-admin-retention');
    expect(podOf(retention).containers[0].args).toEqual(['guardrails:retention', '--actor=cronjob/guardrails-retention']);
  });

  it('gives kb-api its maintenance CronJobs (their schedules are checked against the app by its own schedules spec)', () => {
    const tasks = ofKind(render('kb-api', 'prod'), 'CronJob').map((cj) => podOf(cj).containers[0].args!.join(' '));
    expect(tasks).toEqual(expect.arrayContaining(['commands:run prune-expired-auth', 'commands:run prune-chat-logs']));
  });

  it('stores kb originals in object storage in every environment (pods share no disk)', () => {
    for (const env of ['staging', 'prod'] as const) {
      const config = ofKind(render('kb-api', env), 'ConfigMap')[0] as unknown as { data: Record<string, string> };
      expect([env, config.data['KB_STORAGE_DRIVER'], config.data['KB_S3_BUCKET']]).toEqual([env, 's3', `platform-kb-${env}`]);
    }
  });

  it('scales and isolates in prod, stays small in staging', () => {
    expect(ofKind(render('kb-api', 'prod'), 'HorizontalPodAutoscaler')).toHaveLength(1);
    expect(ofKind(render('kb-api', 'prod'), 'NetworkPolicy')).toHaveLength(1);
    expect(ofKind(render('kb-api', 'staging'), 'PodDisruptionBudget')).toHaveLength(0);
  });
});
