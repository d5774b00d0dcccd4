import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, startKbWithCallers } from './admin-support';
import { KbClient } from './kb-fixtures';

const DOCS = [
  { project_key: 'infra', source_path: 'services/alpha.md', content: '# Alpha service\n\n## Deployment\n\nThe alpha service uses kubernetes clusters for deployment.\n' },
  { project_key: 'infra', source_path: 'services/beta.md', content: '# Beta service\n\n## Deployment\n\nThe beta service runs on kubernetes too.\n' },
  { project_key: 'infra', source_path: 'policies/gamma.md', content: '# Gamma notes\n\nKubernetes upgrades happen quarterly. Gamma uses terraform.\n' },
  { project_key: 'infra', source_path: 'delta.md', content: '# Delta\n\nTerraform modules live in the infra repository. Delta uses terraform.\n' },
  { project_key: 'infra', source_path: 'epsilon.md', content: '# Epsilon\n\nUnrelated text about lunch menus.\n' },
];

describe('kb-api admin knowledge: settings, content gaps, evidence tiers, auto-wiki', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let viewer: Caller;
  let editor: Caller;
  let admin: Caller;
  let foreignAdmin: Caller;
  const ids: Record<string, number> = {};
  const as = (who: Caller | undefined, method: string, path: string, body?: unknown) => new KbClient(svc.url).call(method, path, { token: who?.token, body });

  beforeAll(async () => {
    let documentIds: Record<string, number>;
    ({ svc, db, stop, viewer, editor, admin, foreignAdmin, ids: documentIds } = await startKbWithCallers('wiki.test', { adminRole: 'super-admin', documents: DOCS }));
    Object.assign(ids, documentIds);
  }, 60_000);

  afterAll(() => stop?.());

  it('gates every route G1: 401 for guests, 403 for viewers and editors', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/kb/analysis-settings'],
      ['PUT', '/api/admin/kb/analysis-settings', {}],
      ['GET', '/api/admin/kb/autowiki-settings'],
      ['PUT', '/api/admin/kb/autowiki-settings', {}],
      ['GET', '/api/admin/kb/evidence-tiers'],
      ['PUT', '/api/admin/kb/evidence-tiers', {}],
      ['GET', '/api/admin/kb/content-gaps'],
      ['POST', '/api/admin/kb/content-gaps/00000000000000000000000000000000/resolve', {}],
      ['POST', '/api/admin/kb/wiki-build'],
      ['GET', '/api/admin/kb/wiki-pages'],
      ['GET', '/api/admin/kb/wiki-pages/1'],
      ['GET', '/api/admin/kb/concepts'],
      ['GET', '/api/admin/kb/concepts/1'],
      ['POST', '/api/admin/kb/concepts/1/merge', { into: 2 }],
      ['DELETE', '/api/admin/kb/concepts/1'],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await as(undefined, method, path, body)).status]).toEqual([method, path, 401]);
      for (const denied of [viewer, editor]) expect([method, path, (await as(denied, method, path, body)).status]).toEqual([method, path, 403]);
    }
    for (const path of ['/api/admin/kb/analysis-settings', '/api/admin/kb/autowiki-settings', '/api/admin/kb/evidence-tiers', '/api/admin/kb/content-gaps', '/api/admin/kb/wiki-pages', '/api/admin/kb/concepts'])
      expect([path, (await as(admin, 'GET', path)).status]).toEqual([path, 200]);
  });

  it('answers defaults until set, stores only allow-listed keys and rejects bad or unknown ones (422 naming the field)', async () => {
    const initial = await as(admin, 'GET', '/api/admin/kb/analysis-settings');
    expect(initial.body).toEqual({
      data: { low_confidence_threshold: 40, stale_after_days: 180, stuck_ingest_minutes: 30, top_terms: 20 },
      defaults: { low_confidence_threshold: 40, stale_after_days: 180, stuck_ingest_minutes: 30, top_terms: 20 },
      updated_at: null,
    });
    const saved = await as(admin, 'PUT', '/api/admin/kb/analysis-settings', { stale_after_days: 30 });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ low_confidence_threshold: 40, stale_after_days: 30, stuck_ingest_minutes: 30, top_terms: 20 });
    expect(saved.body.updated_at).toEqual(expect.any(String));
    expect((await as(foreignAdmin, 'GET', '/api/admin/kb/analysis-settings')).body.updated_at).toBeNull();

    const bad: Array<[string, unknown, string[]]> = [
      ['analysis-settings', { low_confidence_threshold: 101 }, ['low_confidence_threshold']],
      ['analysis-settings', { stale_after_days: '30' }, ['stale_after_days']],
      ['analysis-settings', { colour: 'red' }, ['colour']],
      ['autowiki-settings', { enabled: 'yes', max_concepts: 0 }, ['enabled', 'max_concepts']],
      ['autowiki-settings', { exclude_terms: [1] }, ['exclude_terms']],
      ['evidence-tiers', { tiers: [{ rank: 50 }] }, ['tiers.0.path_prefix']],
      ['evidence-tiers', { tiers: [{ source_type: 'pdf', path_prefix: 'a', rank: 5 }] }, ['tiers.0.path_prefix']],
      ['evidence-tiers', { tiers: [{ path_prefix: '../up', rank: 500 }] }, ['tiers.0.path_prefix', 'tiers.0.rank']],
      ['evidence-tiers', { tiers: [{ source_type: 'pdf', rank: 5, weight: 1 }] }, ['tiers.0.weight']],
      ['evidence-tiers', { tiers: [{ source_type: 'spreadsheet', rank: 5 }] }, ['tiers.0.source_type']],
      ['evidence-tiers', { default_rank: -1, tiers: 'all' }, ['default_rank', 'tiers']],
      ['evidence-tiers', { tiers: [{ source_type: 'pdf', rank: 5 }, { source_type: 'pdf', rank: 9 }] }, ['tiers.1.source_type']],
    ];
    for (const [path, body, fields] of bad) {
      const r = await as(admin, 'PUT', `/api/admin/kb/${path}`, body);
      expect([path, JSON.stringify(body), r.status, Object.keys(r.body.errors ?? {}).sort()]).toEqual([path, JSON.stringify(body), 422, fields]);
    }
    expect((await as(admin, 'GET', '/api/admin/kb/analysis-settings')).body.data.stale_after_days).toBe(30);
  });

  it('groups refused and low-confidence questions into content gaps until resolved', async () => {
    for (const question of ['What is the weather on Mars?', 'what is the  weather on mars']) {
      const r = await as(viewer, 'POST', '/api/kb/chat', { question });
      expect(r.body.refusal_reason).toBe('no_relevant_context');
    }
    await db.query(
      `INSERT INTO kb_chat_logs (tenant_id, question, answer, citations, confidence, refusal_reason, latency_ms) VALUES
         ('default', 'Who maintains the terraform modules?', 'x', '[]', 30, NULL, 5),
         ('default', 'Blocked question', 'x', '[]', 0, 'blocked_by_guardrails', 5),
         ('other', 'What is the weather on Mars?', 'x', '[]', 0, 'no_relevant_context', 5)`,
    );
    const gaps = await as(admin, 'GET', '/api/admin/kb/content-gaps');
    expect(gaps.status).toBe(200);
    expect(gaps.body).toMatchObject({ total: 2, current_page: 1, low_confidence_threshold: 40, days: 30 });
    expect(gaps.body.data.map((g: { normalized_question: string; count: number; sample_refusal_reason: string | null }) => [g.normalized_question, g.count, g.sample_refusal_reason])).toEqual([
      ['what is the weather on mars', 2, 'no_relevant_context'],
      ['who maintains the terraform modules', 1, null],
    ]);
    expect(gaps.body.data[0]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), question: 'what is the  weather on mars', refusals: 2, last_asked_at: expect.any(String) });

    // The threshold comes from the analysis settings.
    await as(admin, 'PUT', '/api/admin/kb/analysis-settings', { stale_after_days: 30, low_confidence_threshold: 20 });
    expect((await as(admin, 'GET', '/api/admin/kb/content-gaps')).body.total).toBe(1);
    await as(admin, 'PUT', '/api/admin/kb/analysis-settings', { stale_after_days: 30 });

    const mars = gaps.body.data[0].id;
    expect((await as(foreignAdmin, 'POST', `/api/admin/kb/content-gaps/${gaps.body.data[1].id}/resolve`, {})).status).toBe(404);
    const resolved = await as(admin, 'POST', `/api/admin/kb/content-gaps/${mars}/resolve`, { note: 'Out of scope for this knowledge base.' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ id: mars, note: 'Out of scope for this knowledge base.', resolved_at: expect.any(String) });
    const after = await as(admin, 'GET', '/api/admin/kb/content-gaps');
    expect(after.body.data.map((g: { id: string }) => g.id)).not.toContain(mars);
    expect((await as(admin, 'POST', `/api/admin/kb/content-gaps/${mars}/resolve`, {})).status).toBe(404);
    expect((await as(admin, 'POST', '/api/admin/kb/content-gaps/not-a-gap/resolve', {})).status).toBe(404);
    // Asked again after the resolution, the gap comes back with the new asks only.
    await as(viewer, 'POST', '/api/kb/chat', { question: 'What is the weather on Mars?' });
    const reopened = (await as(admin, 'GET', '/api/admin/kb/content-gaps')).body.data.find((g: { id: string }) => g.id === mars);
    expect(reopened.count).toBe(1);
    const bad = await as(admin, 'GET', '/api/admin/kb/content-gaps?days=0&per_page=1000');
    expect([bad.status, Object.keys(bad.body.errors).sort()]).toEqual([422, ['days', 'per_page']]);
  });

  it('labels documents with the tenant’s evidence tiers', async () => {
    const put = await as(admin, 'PUT', '/api/admin/kb/evidence-tiers', {
      default_rank: 30,
      tiers: [
        { path_prefix: 'policies/', rank: 90, label: 'Policy' },
        { source_type: 'markdown', rank: 60, label: 'Markdown' },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ default_rank: 30, tiers: [{ path_prefix: 'policies/', rank: 90, label: 'Policy' }, { source_type: 'markdown', rank: 60, label: 'Markdown' }] });
    const docs = await as(admin, 'GET', '/api/admin/kb/documents?per_page=100');
    const byPath = Object.fromEntries(docs.body.data.map((d: { source_path: string; evidence: unknown }) => [d.source_path, d.evidence]));
    expect(byPath['policies/gamma.md']).toEqual({ rank: 90, label: 'Policy', matched_by: 'path_prefix' });
    expect(byPath['delta.md']).toEqual({ rank: 60, label: 'Markdown', matched_by: 'source_type' });
  });

  it('builds concept pages from shared headings and key terms, deterministically', async () => {
    const settings = await as(admin, 'PUT', '/api/admin/kb/autowiki-settings', { max_document_share: 80, exclude_terms: ['Uses', 'uses'] });
    expect(settings.body.data).toMatchObject({ enabled: true, min_document_frequency: 2, max_document_share: 80, exclude_terms: ['uses'] });
    const build = await as(admin, 'POST', '/api/admin/kb/wiki-build');
    expect(build.status).toBe(200);
    expect(build.body).toMatchObject({ documents_considered: 5, concepts: 4, headings: 1, terms: 3, pages: 4 });

    const concepts = await as(admin, 'GET', '/api/admin/kb/concepts');
    expect(concepts.body.data.map((c: { key: string; kind: string; document_count: number }) => [c.key, c.kind, c.document_count])).toEqual([
      ['kubernetes', 'term', 3],
      ['deployment', 'heading', 2],
      ['service', 'term', 2],
      ['terraform', 'term', 2],
    ]);
    const again = await as(admin, 'POST', '/api/admin/kb/wiki-build');
    expect(again.body.concepts).toBe(4);
    const same = await as(admin, 'GET', '/api/admin/kb/concepts');
    expect(same.body.data.map((c: { id: number }) => c.id)).toEqual(concepts.body.data.map((c: { id: number }) => c.id));

    const kubernetes = concepts.body.data[0];
    const one = await as(admin, 'GET', `/api/admin/kb/concepts/${kubernetes.id}`);
    expect(one.body.data.documents.map((d: { source_path: string }) => d.source_path).sort()).toEqual(['policies/gamma.md', 'services/alpha.md', 'services/beta.md']);
    expect(one.body.data.page).toEqual({ slug: 'concept-kubernetes', title: 'kubernetes' });

    const pages = await as(admin, 'GET', '/api/admin/kb/wiki-pages');
    expect(pages.body.total).toBe(4);
    const page = await as(admin, 'GET', `/api/admin/kb/wiki-pages/${kubernetes.id}`);
    const body: string = page.body.data.body;
    expect(body.startsWith('# kubernetes\n\nA key term used in 3 documents.')).toBe(true);
    // The policy (rank 90) is listed before the others (rank 60).
    expect(body.indexOf('[[gamma]]')).toBeLessThan(body.indexOf('[[alpha]]'));
    expect(body).toContain('evidence Policy, rank 90');
    expect(body).toContain('## Related concepts');
    expect((await as(foreignAdmin, 'GET', `/api/admin/kb/wiki-pages/${kubernetes.id}`)).status).toBe(404);
    expect((await as(foreignAdmin, 'GET', `/api/admin/kb/concepts/${kubernetes.id}`)).status).toBe(404);
    expect((await as(foreignAdmin, 'GET', '/api/admin/kb/concepts')).body.total).toBe(0);
  });

  it('merges a concept into another (kept across rebuilds) and deletes one for good', async () => {
    const list = (await as(admin, 'GET', '/api/admin/kb/concepts?per_page=50')).body.data as Array<{ id: number; key: string }>;
    const id = (key: string) => list.find((c) => c.key === key)!.id;
    const merged = await as(admin, 'POST', `/api/admin/kb/concepts/${id('terraform')}/merge`, { into: id('kubernetes') });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({ key: 'kubernetes', aliases: ['terraform'], document_count: 4 });
    expect((await as(admin, 'GET', `/api/admin/kb/concepts/${id('terraform')}`)).status).toBe(404);
    expect((await as(admin, 'GET', `/api/admin/kb/wiki-pages/${id('kubernetes')}`)).body.data.body).toContain('Also known as: terraform.');
    const self = await as(admin, 'POST', `/api/admin/kb/concepts/${id('service')}/merge`, { into: id('service') });
    expect([self.status, Object.keys(self.body.errors)]).toEqual([422, ['into']]);
    expect((await as(admin, 'POST', `/api/admin/kb/concepts/${id('service')}/merge`, { into: 'x' })).status).toBe(422);

    expect((await as(admin, 'DELETE', `/api/admin/kb/concepts/${id('service')}`)).status).toBe(204);
    expect((await as(admin, 'DELETE', `/api/admin/kb/concepts/${id('service')}`)).status).toBe(404);
    const rebuilt = await as(admin, 'POST', '/api/admin/kb/wiki-build');
    expect(rebuilt.body.concepts).toBe(2);
    const after = await as(admin, 'GET', '/api/admin/kb/concepts');
    expect(after.body.data.map((c: { key: string; document_count: number }) => [c.key, c.document_count])).toEqual([
      ['kubernetes', 4],
      ['deployment', 2],
    ]);

    await as(admin, 'PUT', '/api/admin/kb/autowiki-settings', { enabled: false });
    const disabled = await as(admin, 'POST', '/api/admin/kb/wiki-build');
    expect([disabled.status, disabled.body.error]).toEqual([409, 'autowiki_disabled']);
  });
});
