import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

describe('kb-api promotion switched on without a language model', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let token: string;
  const call = (url: string, body: unknown) => new KbClient(svc.url).call('POST', url, { token, body });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb({ KB_PROMOTION_ENABLED: 'true', KB_CHAT_PROVIDER: 'none', KB_PROMOTION_APPROVAL_TTL_MIN: '5' }));
    await createUser(db, { email: 'author@example.com' });
    token = (await new KbClient(svc.url).call('POST', '/api/auth/token', { body: { email: 'author@example.com', password: 'correct horse battery staple' } })).body.token;
  });

  afterAll(async () => {
    await stop?.();
  });

  it('answers suggest with 503 llm_not_configured, while promote still pauses a draft for the configured lifetime', async () => {
    const suggest = await call('/api/kb/promotion/suggest', { transcript: 'a: we decided to keep snapshots for ninety days' });
    expect(suggest.status).toBe(503);
    expect(suggest.body.error).toBe('llm_not_configured');

    const promoted = await call('/api/kb/promotion/promote', { project_key: 'ops', markdown: '---\nslug: index\ntype: project-index\nstatus: accepted\n---\n# Ops' });
    expect(promoted.status).toBe(202);
    expect(promoted.body).toMatchObject({ status: 'paused', slug: 'index', path: 'index.md', doc_id: null });
    const lifetime = Date.parse(promoted.body.approval.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);
    expect((await db.query('SELECT count(*)::int AS n FROM kb_documents'))[0].n).toBe(0);
  });
});
