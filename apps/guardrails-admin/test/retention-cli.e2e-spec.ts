import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadEnv } from '@platform/config';
import { migrateDatabase } from '@platform/database';
import { createTestDatabase, TestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { GuardrailsAdminEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';

const root = join(__dirname, '../../..');

/** The real cli.ts in a child process, as the Kubernetes CronJob runs it. */
function cli(db: TestDatabase, ...args: string[]) {
  const r = spawnSync(process.execPath, ['-r', join(root, 'tools/swc-register.cjs'), join(root, 'apps/guardrails-admin/src/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_NAME: db.name, GUARDRAILS_HITL_REQUESTS_STORE: 'database', LOG_LEVEL: 'info' },
    encoding: 'utf8',
  });
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { status: r.status, lines, stderr: r.stderr };
}

// Each task runs in a fresh Node process that compiles the TypeScript first.
jest.setTimeout(60_000);

describe('guardrails-admin retention CLI', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('gr_cli');
    const options = dataSourceOptions(loadEnv(GuardrailsAdminEnv, { ...process.env, DATABASE_NAME: db.name }));
    await migrateDatabase(options);
    ds = await new DataSource(options).initialize();
    const old = new Date(Date.now() - 400 * 86_400_000);
    await ds.query(
      `INSERT INTO guardrails_injection_audit (prompt, blocked, principal_id, ruleset_version, occurred_at) VALUES ('old secret', true, 'u1', 'v1', $1), ('fresh', false, 'u2', 'v1', now())`,
      [old],
    );
    await ds.query(`INSERT INTO guardrails_hitl_requests (run_id, tool, arguments, principal_id, created_at) VALUES (gen_random_uuid(), 'refund', '{"order":"A"}', 'u1', $1)`, [old]);
    await ds.query(`INSERT INTO guardrails_settings (key, value) VALUES ('retention.strategy', '"purge"')`);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('counts on a dry run, refuses a mutating run without an actor, then sweeps with the stored strategy', async () => {
    const dry = cli(db, 'guardrails:retention', '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.lines.find((l) => l.msg === 'retention run')).toMatchObject({ strategy: 'purge', days: 365, dry_run: true, audit: 1, hitl_requests: 1 });
    expect((await ds.query('SELECT count(*)::int AS n FROM guardrails_injection_audit'))[0].n).toBe(2);

    const anonymous = cli(db, 'guardrails:retention');
    expect(anonymous.status).toBe(1);
    expect(anonymous.lines.find((l) => l.msg === 'task failed').error).toMatch(/actor/);

    const anonymize = cli(db, 'guardrails:retention', '--strategy=anonymize', '--actor=ops@example.com');
    expect(anonymize.status).toBe(0);
    expect(anonymize.lines.find((l) => l.msg === 'retention run')).toMatchObject({ strategy: 'anonymize', audit: 1, actor: 'ops@example.com' });
    expect(await ds.query(`SELECT prompt, principal_id FROM guardrails_injection_audit ORDER BY id`)).toEqual([
      { prompt: '[anonymized]', principal_id: null },
      { prompt: 'fresh', principal_id: 'u2' },
    ]);

    expect(cli(db, 'guardrails:retention', '--actor=ops', '--days=0').status).toBe(1);
    expect(cli(db, 'guardrails:retention', '--actor=ops', '--days=-3').status).toBe(1);
    const purge = cli(db, 'guardrails:retention', '--actor=ops');
    expect(purge.status).toBe(0);
    expect((await ds.query('SELECT prompt FROM guardrails_injection_audit')).map((r: { prompt: string }) => r.prompt)).toEqual(['fresh']);
  });

  it('erases the HITL sidecar on request', async () => {
    await ds.query(`INSERT INTO guardrails_hitl_requests (run_id, tool, arguments, created_at) VALUES (gen_random_uuid(), 'refund', '{}', now())`);
    expect(cli(db, 'guardrails:purge-hitl-requests').status).toBe(1);
    const r = cli(db, 'guardrails:purge-hitl-requests', '--actor=dpo');
    expect(r.status).toBe(0);
    expect(r.lines.find((l) => l.msg === 'hitl requests purged')).toMatchObject({ erased: 1, actor: 'dpo' });
  });
});
