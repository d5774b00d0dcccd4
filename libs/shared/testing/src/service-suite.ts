import { readFileSync } from 'node:fs';
import type { INestApplication, Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { loadEnv } from '@platform/config';
import { DrainingService } from '@platform/health';
import { HttpAppOptions, startHttpApp, startWorker, WorkerHandle } from '@platform/runtime';
import { migrateDatabase } from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { TestJwksIssuer } from './jwks-issuer';
import { createTestDatabase, TestDatabase, testRedisPrefix } from './test-database';

export interface ServiceUnderTest {
  /** Service name as it appears in logs and metrics labels. */
  service: string;
  /**
   * Imported lazily: the config module validates process.env when the module is loaded, so one
   * test file boots one configuration of a service.
   */
  loadAppModule: () => Promise<Type<unknown>>;
  loadWorkerModule?: () => Promise<Type<unknown>>;
  /** Builds the DataSource options from env (the app's own data-source.ts), to run migrations. */
  dataSourceOptions?: (env: NodeJS.ProcessEnv) => DataSourceOptions;
  /** Extra env the service needs in tests. */
  env?: Record<string, string>;
  /** What main.ts passes to startHttpApp (e.g. the gateway's proxy). */
  httpOptions?: HttpAppOptions;
}

export interface RunningService {
  app: INestApplication;
  url: string;
  db?: TestDatabase;
  stop(): Promise<void>;
}

/** Boots a service the way main.ts does, on a random port, against a fresh, migrated database. */
export async function startServiceForTest(s: ServiceUnderTest, extraEnv: Record<string, string> = {}): Promise<RunningService> {
  const db = s.dataSourceOptions ? await createTestDatabase(s.service.replace(/-/g, '_')) : undefined;
  Object.assign(process.env, {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    REDIS_PREFIX: testRedisPrefix(s.service),
    ...(db ? { DATABASE_NAME: db.name } : {}),
    ...s.env,
    ...extraEnv,
  });
  if (db && s.dataSourceOptions) await migrateDatabase(s.dataSourceOptions(process.env));
  const app = await startHttpApp(await s.loadAppModule(), s.httpOptions);
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    app,
    url,
    db,
    stop: async () => {
      await app.close();
      await db?.drop();
    },
  };
}

/**
 * The behaviour every deployable shares (issue: platform foundation), asserted the same way for
 * each: liveness, readiness on real Postgres/Redis, Prometheus metrics, problem+json errors with
 * the request id echoed, readiness turning red while draining, and (for apps with a worker) the
 * worker's own health port.
 */
export function describeServiceBasics(s: ServiceUnderTest): void {
  describe(`${s.service}: platform basics`, () => {
    let running: RunningService;

    beforeAll(async () => {
      running = await startServiceForTest(s, { SHUTDOWN_GRACE_MS: '400' });
    });

    afterAll(async () => {
      await running?.db?.drop();
    });

    it('answers liveness without touching dependencies', async () => {
      const r = await fetch(`${running.url}/health/live`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ status: 'ok' });
    });

    it('is ready when its Postgres and Redis answer', async () => {
      const r = await fetch(`${running.url}/health/ready`);
      const body = (await r.json()) as { status: string; checks: Record<string, { status: string }> };
      expect(r.status).toBe(200);
      expect(body.status).toBe('ok');
      if (s.dataSourceOptions) expect(body.checks['postgres']?.status).toBe('up');
      expect(body.checks['draining']?.status).toBe('up');
    });

    it('exposes Prometheus metrics labelled with the service', async () => {
      await fetch(`${running.url}/health/live`);
      const r = await fetch(`${running.url}/metrics`);
      expect(r.status).toBe(200);
      const text = await r.text();
      expect(text).toContain(`service="${s.service}"`);
      expect(text).toContain('process_cpu_seconds_total');
    });

    it('answers unknown routes with a JSON error and echoes the request id', async () => {
      const r = await fetch(`${running.url}/definitely-not-here`, { headers: { 'x-request-id': 'req-test-42' } });
      expect(r.status).toBe(404);
      expect(r.headers.get('x-request-id')).toBe('req-test-42');
      const body = (await r.json()) as Record<string, unknown>;
      if (s.httpOptions?.filter) {
        // An area with its own error shape (e.g. evidence review's { error: { code } }).
        expect(JSON.stringify(body)).toContain('not_found');
      } else {
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(body).toMatchObject({ status: 404, code: 'not_found' });
      }
    });

    it('makes up a request id when none (or a malformed one) is sent', async () => {
      const r = await fetch(`${running.url}/health/live`, { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('turns readiness red as soon as shutdown starts, then closes', async () => {
      const closing = running.app.close();
      await new Promise((r) => setTimeout(r, 100));
      const r = await fetch(`${running.url}/health/ready`);
      expect(r.status).toBe(503);
      expect(((await r.json()) as { checks: Record<string, { status: string }> }).checks['draining'].status).toBe('down');
      await closing;
      await expect(fetch(`${running.url}/health/live`)).rejects.toThrow();
    });

    if (s.loadWorkerModule) {
      it('runs a worker with its own health port', async () => {
        Object.assign(process.env, { WORKER_HEALTH_PORT: '0' });
        const worker: WorkerHandle = await startWorker(await s.loadWorkerModule!());
        try {
          expect((await fetch(`${worker.healthUrl}/health/live`)).status).toBe(200);
          const ready = await fetch(`${worker.healthUrl}/health/ready`);
          expect(ready.status).toBe(200);
          expect(((await ready.json()) as { checks: Record<string, unknown> }).checks).toHaveProperty('redis');
          worker.context.get(DrainingService).startDraining();
          expect((await fetch(`${worker.healthUrl}/health/ready`)).status).toBe(503);
        } finally {
          await worker.close();
        }
      });
    }
  });
}

/**
 * Keeps apps/<app>/.env.example true to the env class: every variable the class declares is
 * listed (a commented-out line counts), nothing unknown is listed, and the listed values validate.
 */
export function describeEnvExample(envClass: new () => object, examplePath: string): void {
  describe('.env.example', () => {
    it('lists exactly the variables the env class declares, and validates', () => {
      const declared = new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(envClass, '', true, false)
          .map((m) => m.propertyName),
      );
      const listed = new Map(
        readFileSync(examplePath, 'utf8')
          .split('\n')
          .map((line) => line.replace(/^#\s*/, ''))
          .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
      );
      expect([...listed.keys()].sort()).toEqual([...declared].sort());
      expect(() => loadEnv(envClass, Object.fromEntries(listed))).not.toThrow();
    });
  });
}

/** A service booted as main.ts does, trusting a test JWKS issuer whose tokens it accepts; stop() ends both. */
export async function startServiceWithIssuer(s: ServiceUnderTest, env: Record<string, string> = {}) {
  const issuer = await new TestJwksIssuer().start();
  const svc = await startServiceForTest(s, { IAM_JWKS_URL: issuer.jwksUrl, IAM_ISSUER: issuer.issuer, ...env });
  return {
    issuer,
    svc,
    stop: async () => {
      await svc.stop();
      await issuer.stop();
    },
  };
}
