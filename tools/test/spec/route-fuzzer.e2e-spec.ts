import path from 'node:path';
import { basicAuth, ROOT, startSystemPlatform, SystemPlatform } from '../support/system-platform';
import { judge, loadOperations, Operation, pool, Probe, probesFor, send } from '../support/route-fuzz';

/**
 * Every route of every committed OpenAPI document, sent hostile input through the gateway of the
 * built platform: NUL and non-UTF-8 bytes in each query and path parameter and in string body
 * fields, numbers out of range, JSON nested 5,000 levels, bodies of 2 MB (70 MB on a few routes),
 * the wrong content type and `Expect: 100-continue`; with credentials, so a probe reaches
 * validation, and once without. No answer may be a 5xx or a dropped connection, and every error
 * must be JSON (the sign-in pages' HTML errors, which their document declares, aside).
 */
jest.setTimeout(400_000);

/** A body this large on a few routes is enough to show the limit holds; on every route it would only cost time. */
const HUGE_BODY_ROUTES = ['post /api/kb/ingest', 'post /evidence-risk-review/reviews', 'post /oauth/token'];
/** Routes that end the caller's own credentials: probed last, so every other probe still carries valid ones. */
const ENDS_CREDENTIALS = /\/(logout|token\/revoke)$/;
const PER_REQUEST_TIMEOUT_MS = 30_000;
const IN_FLIGHT = 4;

describe('route fuzzer: hostile input on every documented route', () => {
  let p: SystemPlatform;
  let credentials: (op: Operation) => Record<string, string>;

  beforeAll(async () => {
    p = await startSystemPlatform({ offset: 400 });
    const [kb, iam, guardrails, evidence] = await Promise.all([
      p.kbToken(),
      p.clientToken('iam:clients.manage iam:applications.read'),
      p.clientToken('guardrails:admin'),
      p.clientToken('evidence:review'),
    ]);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    credentials = (op) => {
      if (op.service === 'guardrails-admin') return bearer(guardrails);
      if (op.service === 'evidence-review') return bearer(evidence);
      if (op.service === 'kb-api') return op.security.length === 0 && op.path.startsWith('/api/widget') ? {} : bearer(kb);
      if (op.security.includes('bearer')) return bearer(iam);
      if (op.security.includes('clientBasic')) return { authorization: basicAuth(p.bootstrap.id, p.bootstrap.secret) };
      return {};
    };
  });

  afterAll(async () => {
    await p?.stop();
  });

  it('answers every probe with a 4xx or success in JSON, never a 5xx or a dropped connection', async () => {
    const operations = loadOperations(path.join(ROOT, 'docs/api'));
    expect(operations.length).toBeGreaterThan(200);
    const probes: Array<Probe & { anonymous?: boolean }> = [];
    for (const op of operations) {
      const own = probesFor(op, { big: HUGE_BODY_ROUTES.includes(`${op.method} ${op.path}`) });
      probes.push(...own);
      // The same first probe without credentials: the guard's refusal must be just as clean.
      if (own[0]) probes.push({ ...own[0], variant: `${own[0].variant} (no credentials)`, anonymous: true });
    }
    // Every documented route gets probed.
    expect(new Set(probes.map((x) => `${x.op.method} ${x.op.path}`)).size).toBe(operations.length);

    /** Services where some probe sent with credentials got past authentication (proof the credentials work). */
    const admitted = new Set<string>();
    const run = (list: typeof probes, limit: number) =>
      pool(list, limit, async (probe) => {
        const auth = probe.anonymous ? {} : credentials(probe.op);
        const outcome = await send(p.gw, probe, auth, PER_REQUEST_TIMEOUT_MS);
        if (auth.authorization && outcome.status !== undefined && outcome.status !== 401) admitted.add(probe.op.service);
        const why = judge(probe, outcome);
        return why ? `${probe.method} ${probe.op.path} [${probe.variant}]: ${why}` : undefined;
      });
    const last = probes.filter((x) => ENDS_CREDENTIALS.test(x.op.path));
    const failures = [...(await run(probes.filter((x) => !last.includes(x)), IN_FLIGHT)), ...(await run(last, 1))].filter(Boolean);

    // The gateway still answers afterwards: no probe wedged it.
    expect((await fetch(`${p.gw}/health/live`)).status).toBe(200);
    expect([...admitted].sort()).toEqual(['evidence-review', 'guardrails-admin', 'iam', 'kb-api']);
    expect(failures).toEqual([]);
  });
});
