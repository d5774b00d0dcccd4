import { request, Server } from 'node:http';
import path from 'node:path';
import { SecretHasher } from '@platform/crypto';
import { mountedFastRoutes } from '@platform/runtime';
import type { RunningService } from '@platform/testing';
import type { Express } from 'express';

const ROOT = path.join(__dirname, '../../..');
/** An app's own test support, loaded by path (tools may not import an app's modules statically). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const appModule = (file: string): Promise<any> => import(path.join(ROOT, file));

interface Probe {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Headers that differ between any two requests, or with a minted token in the body. */
const VARYING = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'x-ratelimit-remaining', 'ratelimit']);
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

/** A request over node:http (the path is sent as given, an empty query string too) and what its answer shows. */
function send(base: string, path: string, probe: Probe): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: probe.method, headers: probe.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const minted = JWT.test(raw);
        const headers = Object.entries(res.headers).filter(([k]) => !VARYING.has(k) && !(minted && (k === 'etag' || k === 'content-length')));
        resolve({ status: res.statusCode ?? 0, headers: Object.fromEntries(headers), body: raw.replace(new RegExp(JWT, 'g'), '<jwt>') });
      });
    })
      .on('error', reject)
      .end(probe.body);
  });
}

/**
 * Every @LeanRoute() method of an app is mounted and has probes here; each probe gets the same
 * answer on the lean path (which Express never sees) and, with an empty query string, through
 * Express and Nest. A method added to the lean path without probes fails the first check.
 */
function leanRoutesAnswerAsNest(name: string, boot: () => Promise<{ svc: RunningService; probes: Record<string, Probe[]>; stop: () => Promise<void> }>) {
  describe(`${name}: every lean route answers as its Nest route`, () => {
    let svc: RunningService;
    let probes: Record<string, Probe[]>;
    let stop: () => Promise<void>;

    beforeAll(async () => {
      ({ svc, probes, stop } = await boot());
    });
    afterAll(() => stop());

    it('has probes for exactly the mounted lean routes', () => {
      const mounted = mountedFastRoutes(svc.app.getHttpServer() as Server).map((r) => `${r.method} ${r.path}`);
      expect(mounted.length).toBeGreaterThan(0);
      expect(mounted.sort()).toEqual(Object.keys(probes).sort());
    });

    it('answers each probe alike on both paths', async () => {
      const viaExpress = jest.spyOn(svc.app.getHttpAdapter().getInstance() as Express & { handle: (...args: unknown[]) => void }, 'handle');
      try {
        for (const route of mountedFastRoutes(svc.app.getHttpServer() as Server)) {
          for (const probe of probes[`${route.method} ${route.path}`]!) {
            viaExpress.mockClear();
            const lean = await send(svc.url, route.path, probe);
            const took = route.accepts?.({ headers: probe.headers } as never) ?? true;
            expect([route.path, probe.headers, viaExpress.mock.calls.length]).toEqual([route.path, probe.headers, took ? 0 : 1]);
            viaExpress.mockClear();
            const nest = await send(svc.url, `${route.path}?`, probe);
            expect(viaExpress).toHaveBeenCalledTimes(1);
            expect([route.path, probe, lean]).toEqual([route.path, probe, nest]);
          }
        }
      } finally {
        viaExpress.mockRestore();
      }
    });
  });
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_BODY = 'application/json';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

leanRoutesAnswerAsNest('iam', async () => {
  const { startIam } = await appModule('apps/iam/test/iam-test-env');
  const { ClientsRepository } = await appModule('apps/iam/src/app/clients/clients.repository');
  const svc: RunningService = await startIam({ OAUTH_RATE_LIMIT: '1000' });
  const secret = 'parity-secret-0123456789abcdef';
  await svc.app.get(ClientsRepository).upsert({
    clientId: 'parity',
    name: 'Parity',
    isConfidential: true,
    tokenEndpointAuthMethod: 'client_secret_basic',
    grantTypes: ['client_credentials'],
    scopes: ['kb:read'],
    secretHash: svc.app.get(SecretHasher).hash(secret),
  });
  const token = (headers: Record<string, string>, body: string): Probe => ({ method: 'POST', headers, body });
  return {
    svc,
    stop: () => svc.stop(),
    probes: {
      'POST /oauth/token': [
        token({ 'content-type': FORM, authorization: basic('parity', secret) }, 'grant_type=client_credentials&scope=kb%3Aread'),
        token({ 'content-type': FORM, authorization: basic('parity', 'wrong') }, 'grant_type=client_credentials'),
        token({ 'content-type': FORM }, 'grant_type=client_credentials'),
        token({ 'content-type': FORM, authorization: basic('parity', secret) }, 'grant_type=password'),
        token({ 'content-type': JSON_BODY, authorization: basic('parity', secret) }, '{"grant_type":"client_credentials"}'),
      ],
    },
  };
});

leanRoutesAnswerAsNest('kb-api', async () => {
  const { startKb } = await appModule('apps/kb-api/test/kb-test-env');
  const { callerWith } = await appModule('apps/kb-api/test/admin-support');
  const { svc, db, stop } = await startKb();
  const caller = await callerWith(svc.url, db, { email: 'parity@example.com', roles: ['viewer'] });
  const me = (headers: Record<string, string>): Probe => ({ method: 'GET', headers: { accept: 'application/json', ...headers } });
  // Answers with a timing inside (a ranking, a chat answer) are compared in apps/kb-api/test/lean-paths.e2e-spec.ts, which
  // sets the timings aside; the probes here answer without one.
  const post = (headers: Record<string, string>, body: string): Probe => ({ method: 'POST', headers: { accept: 'application/json', ...headers }, body });
  const signedIn = (type = JSON_BODY) => ({ authorization: `Bearer ${caller.token}`, 'content-type': type });
  return {
    svc,
    stop,
    probes: {
      'GET /api/auth/me': [
        me({ authorization: `Bearer ${caller.token}` }),
        me({ authorization: `Bearer ${caller.token}`, 'x-tenant-id': 'elsewhere' }),
        me({ authorization: 'Bearer kbp_notarealtokenatallxxxxxxxxxxxxxxx' }),
        me({}),
      ],
      'POST /api/kb/retrieve': [
        post(signedIn(), '{"top_k":5}'),
        post(signedIn(), '{"query":"keys","top_k":1e300}'),
        post(signedIn(), '{"query":"a\\u0000b"}'),
        post(signedIn(), '{"query":'),
        post(signedIn('text/plain'), 'keys'),
        post({ 'content-type': JSON_BODY }, '{"query":"keys"}'),
        post({ ...signedIn(), 'x-tenant-id': 'elsewhere' }, '{"query":"keys"}'),
      ],
      'POST /api/kb/chat': [
        post(signedIn(), '{"filters":{}}'),
        post(signedIn(), '{"question":"backups","filters":{"date_from":"2026-02-01","date_to":"2026-01-01"}}'),
        post(signedIn(), '{"question":"backups","anonymous":true}'),
        post(signedIn(), '['.repeat(5000) + ']'.repeat(5000)),
        post(signedIn('text/plain'), 'backups'),
        post({ 'content-type': JSON_BODY }, '{"question":"backups"}'),
      ],
    },
  };
});

leanRoutesAnswerAsNest('evidence-review', async () => {
  const { startEvidenceWithIssuer } = await appModule('apps/evidence-review/test/evidence-test-env');
  const { issuer, svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true' });
  const bearer = `Bearer ${await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'parity' } })}`;
  const review = JSON.stringify({
    artifact: { artifact_id: 'parity', answer_text: 'Answer.', claims: [{ id: 'c1', text: 'It always works.', source_ids: ['s1'] }], sources: [{ id: 's1', url: 'https://doi.org/10.1000/1' }] },
    options: { dry_run: true, reviewed_at: '2026-01-01T00:00:00Z' },
  });
  const post = (headers: Record<string, string>, body: string): Probe => ({ method: 'POST', headers, body });
  return {
    svc,
    stop,
    probes: {
      'POST /evidence-risk-review/reviews': [
        post({ 'content-type': JSON_BODY, authorization: bearer }, review),
        post({ 'content-type': JSON_BODY }, review),
        post({ 'content-type': JSON_BODY, authorization: bearer }, '{"artifact":'),
        post({ 'content-type': JSON_BODY, authorization: bearer }, '{"artifact":{}}'),
        post({ 'content-type': FORM, authorization: bearer }, 'artifact=x'),
      ],
    },
  };
});
