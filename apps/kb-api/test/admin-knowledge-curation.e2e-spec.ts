import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, startKbWithCallers } from './admin-support';
import { KbClient } from './kb-fixtures';

const DOCS = [
  { project_key: 'fleet', source_path: 'handbook/permits.md', content: '# Fleet permits\n\nEvery automobile must hold a parking permit issued by the fleet office. See [[fleet-insurance]].\n', metadata: { tags: ['fleet', 'security'] } },
  { project_key: 'fleet', source_path: 'handbook/fleet-insurance.md', content: '# Fleet insurance\n\nThe fleet office renews the insurance of each automobile every spring.\n', metadata: { tags: ['security', 'sec'] } },
  { project_key: 'fleet', source_path: 'misc/holidays.md', content: '# Holiday policy\n\nEmployees take twenty days of paid leave each year.\n', metadata: { tags: ['hr'] } },
  { project_key: 'people', source_path: 'onboarding.md', content: '# Onboarding\n\nNew employees meet their mentor during the first week.\n' },
];

describe('kb-api admin knowledge: collections, tags, synonyms, analyses', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let viewer: Caller;
  let editor: Caller;
  let admin: Caller;
  let foreignAdmin: Caller;
  const ids: Record<string, number> = {};
  const as = (who: Caller | undefined, method: string, path: string, body?: unknown) => new KbClient(svc.url).call(method, path, { token: who?.token, body });
  const ask = (question: string, extra: Record<string, unknown> = {}) => as(viewer, 'POST', '/api/kb/chat', { question, ...extra });

  beforeAll(async () => {
    let documentIds: Record<string, number>;
    ({ svc, db, stop, viewer, editor, admin, foreignAdmin, ids: documentIds } = await startKbWithCallers('cur.test', { adminRole: 'admin', documents: DOCS }));
    Object.assign(ids, documentIds);
  }, 60_000);

  afterAll(() => stop?.());

  it('gates every route G1: 401 for guests, 403 for viewers and editors', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/kb/collections'],
      ['POST', '/api/admin/kb/collections', { name: 'Gate' }],
      ['GET', '/api/admin/kb/collections/1'],
      ['PATCH', '/api/admin/kb/collections/1', { name: 'Gate' }],
      ['DELETE', '/api/admin/kb/collections/1'],
      ['POST', '/api/admin/kb/collections/1/documents', { add: [1] }],
      ['GET', '/api/admin/kb/tags'],
      ['PATCH', '/api/admin/kb/tags/hr', { name: 'people' }],
      ['DELETE', '/api/admin/kb/tags/hr'],
      ['GET', '/api/admin/kb/synonyms'],
      ['POST', '/api/admin/kb/synonyms', { terms: ['a1', 'b1'] }],
      ['GET', '/api/admin/kb/synonyms/1'],
      ['PUT', '/api/admin/kb/synonyms/1', { terms: ['a1', 'b1'] }],
      ['DELETE', '/api/admin/kb/synonyms/1'],
      ['GET', '/api/admin/kb/analyses'],
      ['POST', '/api/admin/kb/analyses', { project_key: 'fleet' }],
      ['GET', '/api/admin/kb/analyses/1'],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await as(undefined, method, path, body)).status]).toEqual([method, path, 401]);
      for (const denied of [viewer, editor]) expect([method, path, (await as(denied, method, path, body)).status]).toEqual([method, path, 403]);
    }
    for (const path of ['/api/admin/kb/collections', '/api/admin/kb/tags', '/api/admin/kb/synonyms', '/api/admin/kb/analyses'])
      expect([path, (await as(admin, 'GET', path)).status]).toEqual([path, 200]);
  });

  it('creates, lists, updates and deletes collections whose members the chat filter reads', async () => {
    const created = await as(admin, 'POST', '/api/admin/kb/collections', { name: 'Fleet Handbook', description: 'Cars and permits' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Fleet Handbook', slug: 'fleet-handbook', description: 'Cars and permits', criteria: {}, document_count: 0 });
    const id = created.body.data.id;
    const dup = await as(admin, 'POST', '/api/admin/kb/collections', { name: 'Other', slug: 'fleet-handbook' });
    expect([dup.status, dup.body.errors]).toEqual([422, { slug: ['The slug has already been taken.'] }]);
    const invalid = await as(admin, 'POST', '/api/admin/kb/collections', { name: '', color: 'red' });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['color', 'name']);

    const members = await as(admin, 'POST', `/api/admin/kb/collections/${id}/documents`, { add: [ids['handbook/permits.md'], ids['handbook/fleet-insurance.md'], 999999] });
    expect([members.status, members.body.added, members.body.data.document_count]).toEqual([200, [ids['handbook/permits.md'], ids['handbook/fleet-insurance.md']].sort((a, b) => a - b), 2]);
    const filtered = await ask('How often is the insurance renewed?', { filters: { collection_id: id } });
    expect(filtered.body.citations.map((c: { document_id: number }) => c.document_id)).toEqual([ids['handbook/fleet-insurance.md']]);
    const removed = await as(admin, 'POST', `/api/admin/kb/collections/${id}/documents`, { remove: [ids['handbook/fleet-insurance.md']] });
    expect([removed.body.removed, removed.body.data.document_count]).toEqual([[ids['handbook/fleet-insurance.md']], 1]);

    const updated = await as(admin, 'PATCH', `/api/admin/kb/collections/${id}`, { name: 'Fleet', description: null, criteria: { tags: ['fleet'] } });
    expect(updated.body.data).toMatchObject({ name: 'Fleet', slug: 'fleet-handbook', description: null, criteria: { tags: ['fleet'] } });
    // Only description takes null (it clears); any other null is refused by name and changes nothing.
    const nulls = await as(admin, 'PATCH', `/api/admin/kb/collections/${id}`, { name: null, slug: null, criteria: null });
    expect([nulls.status, Object.keys(nulls.body.errors).sort()]).toEqual([422, ['criteria', 'name', 'slug']]);
    const noMembers = await as(admin, 'POST', `/api/admin/kb/collections/${id}/documents`, { add: null, remove: null });
    expect([noMembers.status, Object.keys(noMembers.body.errors).sort()]).toEqual([422, ['add', 'remove']]);
    expect((await as(admin, 'POST', '/api/admin/kb/collections', { name: 'Nameless slug', slug: null })).status).toBe(422);
    expect((await as(admin, 'GET', `/api/admin/kb/collections/${id}`)).body.data).toMatchObject({ name: 'Fleet', slug: 'fleet-handbook', criteria: { tags: ['fleet'] }, document_count: 1 });
    const list = await as(admin, 'GET', '/api/admin/kb/collections?search=flee');
    expect(list.body).toMatchObject({ total: 1, data: [{ id, document_count: 1 }] });
    expect((await as(foreignAdmin, 'GET', `/api/admin/kb/collections/${id}`)).status).toBe(404);
    expect((await as(foreignAdmin, 'DELETE', `/api/admin/kb/collections/${id}`)).status).toBe(404);

    expect((await as(admin, 'DELETE', `/api/admin/kb/collections/${id}`)).status).toBe(204);
    expect((await as(admin, 'GET', `/api/admin/kb/collections/${id}`)).status).toBe(404);
    const [doc] = await db.query(`SELECT metadata->'collection_ids' AS ids FROM kb_documents WHERE id = $1`, [ids['handbook/permits.md']]);
    expect(doc.ids).toEqual([]);
  });

  it('lists tags with counts, renames one across documents (merging duplicates) and deletes one', async () => {
    const list = await as(admin, 'GET', '/api/admin/kb/tags');
    expect(list.body.data).toEqual([
      { tag: 'security', documents: 2 },
      { tag: 'fleet', documents: 1 },
      { tag: 'hr', documents: 1 },
      { tag: 'sec', documents: 1 },
    ]);
    const renamed = await as(admin, 'PATCH', '/api/admin/kb/tags/security', { name: 'sec' });
    expect(renamed.body).toEqual({ tag: 'sec', previous: 'security', documents: 2 });
    const tags = await db.query(`SELECT metadata->'tags' AS tags FROM kb_documents WHERE id = ANY($1::bigint[]) ORDER BY id`, [[ids['handbook/permits.md'], ids['handbook/fleet-insurance.md']]]);
    expect(tags.map((t: { tags: string[] }) => t.tags)).toEqual([['fleet', 'sec'], ['sec']]);
    expect((await as(admin, 'GET', '/api/admin/kb/documents?tag=sec')).body.total).toBe(2);
    const deleted = await as(admin, 'DELETE', '/api/admin/kb/tags/hr');
    expect(deleted.body).toEqual({ tag: 'hr', removed_from: 1 });
    expect((await as(admin, 'DELETE', '/api/admin/kb/tags/hr')).status).toBe(404);
    expect((await as(foreignAdmin, 'PATCH', '/api/admin/kb/tags/sec', { name: 'x' })).status).toBe(404);
    expect((await as(admin, 'PATCH', '/api/admin/kb/tags/sec', { name: ' ' })).body.errors).toHaveProperty('name');
    expect((await as(admin, 'GET', '/api/admin/kb/tags?search=SE')).body.data).toEqual([{ tag: 'sec', documents: 2 }]);
  });

  it('expands a question word to its synonyms in retrieval, at once after each change', async () => {
    // Only "automobile" is in the documents: asked about a car, the knowledge base has nothing.
    const before = await ask('car permit');
    expect(before.body.refusal_reason).toBe('no_relevant_context');

    const created = await as(admin, 'POST', '/api/admin/kb/synonyms', { terms: [' Car ', 'automobile', 'car', 'motor vehicle'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ project_key: null, terms: ['car', 'automobile', 'motor vehicle'] });
    const setId = created.body.data.id;
    const after = await ask('car permit');
    expect(after.body.refusal_reason).toBeNull();
    expect(after.body.citations.map((c: { document_id: number }) => c.document_id)).toEqual([ids['handbook/permits.md']]);

    // A set scoped to another project does not apply to a question filtered to this one.
    const scoped = await as(admin, 'PUT', `/api/admin/kb/synonyms/${setId}`, { terms: ['car', 'automobile'], project_key: 'people' });
    expect(scoped.body.data).toMatchObject({ project_key: 'people', terms: ['car', 'automobile'] });
    expect((await ask('car permit', { project_key: 'fleet' })).body.refusal_reason).toBe('no_relevant_context');
    expect((await ask('car permit')).body.refusal_reason).toBeNull();

    expect((await as(admin, 'GET', '/api/admin/kb/synonyms?project=people&search=auto')).body).toMatchObject({ total: 1, data: [{ id: setId }] });
    expect((await as(admin, 'GET', `/api/admin/kb/synonyms/${setId}`)).body.data.terms).toEqual(['car', 'automobile']);
    expect((await as(foreignAdmin, 'GET', `/api/admin/kb/synonyms/${setId}`)).status).toBe(404);
    expect((await as(admin, 'DELETE', `/api/admin/kb/synonyms/${setId}`)).status).toBe(204);
    expect((await ask('car permit')).body.refusal_reason).toBe('no_relevant_context');
    expect((await as(admin, 'DELETE', `/api/admin/kb/synonyms/${setId}`)).status).toBe(404);
  });

  it('validates synonym sets (422 naming the field)', async () => {
    const cases: Array<[unknown, string]> = [
      [{ terms: ['car'] }, 'terms'],
      [{ terms: ['car', 'CAR '] }, 'terms'],
      [{ terms: ['car', 'the'] }, 'terms.1'],
      [{ terms: 'car,auto' }, 'terms'],
      [{ terms: ['car', 'auto'], project_key: '' }, 'project_key'],
      [{ terms: ['car', 'auto'], weight: 2 }, 'weight'],
    ];
    for (const [body, field] of cases) {
      const r = await as(admin, 'POST', '/api/admin/kb/synonyms', body);
      expect([JSON.stringify(body), r.status, Object.keys(r.body.errors ?? {})]).toEqual([JSON.stringify(body), 422, [field]]);
    }
  });

  it('runs and stores a coverage analysis of a project: folders, top terms, orphans', async () => {
    const run = await as(admin, 'POST', '/api/admin/kb/analyses', { project_key: 'fleet' });
    expect(run.status).toBe(201);
    const a = run.body.data;
    expect(a).toMatchObject({ project_key: 'fleet', kind: 'coverage', duration_ms: expect.any(Number) });
    expect(a.result).toMatchObject({
      documents: 3,
      chunks: 3,
      folders: [
        { folder: 'handbook', documents: 2, chunks: 2 },
        { folder: 'misc', documents: 1, chunks: 1 },
      ],
      orphans: { count: 1, documents: [{ id: ids['misc/holidays.md'], source_path: 'misc/holidays.md', title: 'Holiday policy' }] },
    });
    // Words of two documents first (the wikilink [[fleet-insurance]] counts too), by occurrences; stopwords never appear.
    const top = a.result.top_terms as Array<{ term: string; documents: number; occurrences: number }>;
    expect(top.filter((t) => t.documents === 2).map((t) => t.term).sort()).toEqual(['automobile', 'every', 'fleet', 'insurance', 'office']);
    expect(top.slice(0, 5).every((t) => t.documents === 2)).toBe(true);
    expect(top[0]).toEqual({ term: 'fleet', documents: 2, occurrences: 5 });
    expect(a.result.top_terms.map((t: { term: string }) => t.term)).not.toContain('the');

    const list = await as(admin, 'GET', '/api/admin/kb/analyses?project=fleet');
    expect(list.body).toMatchObject({ total: 1, data: [{ id: a.id, kind: 'coverage' }] });
    expect(list.body.data[0].result).toBeUndefined();
    expect((await as(admin, 'GET', `/api/admin/kb/analyses/${a.id}`)).body.data.result.documents).toBe(3);
    expect((await as(foreignAdmin, 'GET', `/api/admin/kb/analyses/${a.id}`)).status).toBe(404);
    const unknown = await as(admin, 'POST', '/api/admin/kb/analyses', { project_key: 'nope', kind: 'sentiment' });
    expect([unknown.status, Object.keys(unknown.body.errors)]).toEqual([422, ['kind']]);
    // null is not "the default kind": refused by name, no analysis run.
    const analyses = (await db.query(`SELECT count(*)::int AS n FROM kb_analyses`))[0].n;
    const nullKind = await as(admin, 'POST', '/api/admin/kb/analyses', { project_key: 'fleet', kind: null });
    expect([nullKind.status, Object.keys(nullKind.body.errors)]).toEqual([422, ['kind']]);
    expect((await db.query(`SELECT count(*)::int AS n FROM kb_analyses`))[0].n).toBe(analyses);
    const missing = await as(admin, 'POST', '/api/admin/kb/analyses', { project_key: 'nope' });
    expect([missing.status, missing.body.errors]).toEqual([422, { project_key: ['The selected project key is invalid.'] }]);
  });
});
