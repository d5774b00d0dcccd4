import { existsSync } from 'node:fs';
import path from 'node:path';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService, TestJwksIssuer } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const PASSWORD = 'correct horse battery staple';

const ROTATION = `# Signing key rotation

Signing keys rotate through the states next, active, retiring and retired.
A retiring key stays published until its last token expires; see [[token-lifetimes]] and [[missing-page]].

## Publishing ahead

A new key is published in the JWKS one cache lifetime before it signs.
`;

const LIFETIMES = `# Token lifetimes

Access tokens   live fifteen minutes by default.

Refresh tokens rotate on every use.
`;

interface Doc {
  project_key: string;
  source_path: string;
  content: string;
  metadata?: Record<string, unknown>;
}

describe('kb-api document routes: search, preview, wikilinks, related, collections, feedback, delete', () => {
  let svc: RunningService;
  let db: DataSource;
  let issuer: TestJwksIssuer;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let token: string;
  let otherToken: string;
  let securityCollection: number;
  let architectureCollection: number;
  const client = () => new KbClient(svc.url);
  const get = (url: string, t = token) => client().call('GET', url, { token: t });

  const idOf = async (
    projectKey: string,
    sourcePath: string,
    tenant = 'default',
  ): Promise<number> => {
    const [row] = await db.query(
      'SELECT id::int AS id FROM kb_documents WHERE tenant_id = $1 AND project_key = $2 AND source_path = $3',
      [tenant, projectKey, sourcePath],
    );
    return row.id;
  };

  /** Ingests through the API and waits for the worker to index every document. */
  const ingest = async (documents: Doc[], t = token) => {
    const r = await client().call('POST', '/api/kb/ingest', { token: t, body: { documents } });
    expect(r.status).toBe(202);
    const ids: number[] = r.body.documents.map((d: { document_id: number }) => d.document_id);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM kb_documents WHERE id = ANY($1::bigint[]) AND status = 'indexed'`,
        [ids],
      );
      if (n === ids.length) return ids;
      if (Date.now() > deadline) throw new Error(`only ${n} of ${ids.length} documents indexed`);
      await new Promise((res) => setTimeout(res, 50));
    }
  };

  beforeAll(async () => {
    ({ svc, db, issuer, stop } = await startKb());
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(db, { email: 'reader@example.com', roles: ['viewer'] });
    await createUser(db, { email: 'other@globex.test', tenant: 'globex', roles: ['viewer'] });
    token = (
      await client().call('POST', '/api/auth/token', {
        body: { email: 'reader@example.com', password: PASSWORD },
      })
    ).body.token;
    otherToken = (
      await client().call('POST', '/api/auth/token', {
        body: { email: 'other@globex.test', password: PASSWORD },
      })
    ).body.token;

    [{ id: securityCollection }, { id: architectureCollection }] = await db.query(
      `INSERT INTO kb_collections (tenant_id, name, slug) VALUES ('default', 'Security', 'security'), ('default', 'Architecture', 'architecture') RETURNING id::int AS id`,
    );
    await db.query(
      `INSERT INTO kb_collections (tenant_id, name, slug) VALUES ('globex', 'Globex handbook', 'handbook')`,
    );

    await ingest([
      {
        project_key: 'platform',
        source_path: 'guides/signing-key-rotation.md',
        content: ROTATION,
        metadata: { collection_ids: [securityCollection] },
      },
      { project_key: 'platform', source_path: 'guides/token-lifetimes.md', content: LIFETIMES },
      {
        project_key: 'platform',
        source_path: 'runbooks/rotation-drill.md',
        content:
          '# Rotation drill\n\nThe rotation drill is practised every quarter; it follows [[signing-key-rotation]].\n',
      },
      {
        project_key: 'platform',
        source_path: 'glossary/rotation.md',
        content: '# Rotation\n\nReplacing a secret on a schedule.\n',
      },
      {
        project_key: 'platform',
        source_path: 'decisions/rotation-policy.md',
        content: '# Rotation policy\n\nKeys rotate every ninety days.\n',
        metadata: {
          canonical_type: 'decision',
          canonical_status: 'accepted',
          retrieval_priority: 80,
        },
      },
      {
        project_key: 'platform',
        source_path: 'runbooks/rotation-legacy.md',
        content: '# Rotation legacy runbook\n\nNo longer used.\n',
        metadata: { canonical_type: 'runbook', canonical_status: 'archived' },
      },
      {
        project_key: 'support',
        source_path: 'rotation-faq.md',
        content: '# FAQ\n\nAnswers for the support desk.\n',
      },
      {
        project_key: 'support',
        source_path: 'budget/complete.md',
        content: '# Budget 100% approved\n\nAll of it.\n',
      },
      {
        project_key: 'support',
        source_path: 'budget/units.md',
        content: '# Budget 1000 units\n\nA lot.\n',
      },
      {
        project_key: 'support',
        source_path: 'names/a_b.md',
        content: '# Module a_b\n\nUnderscore.\n',
      },
      { project_key: 'support', source_path: 'names/axb.md', content: '# Module axb\n\nLetter.\n' },
    ]);
    await ingest(
      [
        {
          project_key: 'platform',
          source_path: 'guides/signing-key-rotation.md',
          content: '# Signing key rotation\n\nGlobex keys never rotate.\n',
        },
      ],
      otherToken,
    );
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
  });

  describe('GET /api/kb/documents/search', () => {
    it('ranks exact title, then title prefix (canonical first), title contains, path only; archived documents are left out', async () => {
      const r = await get('/api/kb/documents/search?q=%20RoTaTiOn%20');
      expect(r.status).toBe(200);
      expect(r.body.data.map((d: { title: string }) => d.title)).toEqual([
        'Rotation',
        'Rotation policy',
        'Rotation drill',
        'Signing key rotation',
        'FAQ',
      ]);
      expect(r.body.data[1]).toEqual({
        id: await idOf('platform', 'decisions/rotation-policy.md'),
        project_key: 'platform',
        title: 'Rotation policy',
        source_path: 'decisions/rotation-policy.md',
        source_type: 'markdown',
        canonical_type: 'decision',
      });
      expect(r.body.data[4]).toMatchObject({
        project_key: 'support',
        source_path: 'rotation-faq.md',
        canonical_type: null,
      });
    });

    it('treats % and _ in the query as literal characters', async () => {
      const percent = await get('/api/kb/documents/search?q=100%25');
      expect(percent.body.data.map((d: { title: string }) => d.title)).toEqual([
        'Budget 100% approved',
      ]);
      const underscore = await get('/api/kb/documents/search?q=a_b');
      expect(underscore.body.data.map((d: { title: string }) => d.title)).toEqual(['Module a_b']);
    });

    it('scopes to project_keys[] and to the tenant', async () => {
      const support = await get('/api/kb/documents/search?q=rotation&project_keys[]=support');
      expect(support.body.data.map((d: { source_path: string }) => d.source_path)).toEqual([
        'rotation-faq.md',
      ]);
      const both = await get(
        '/api/kb/documents/search?q=rotation&project_keys[]=support&project_keys[]=nowhere',
      );
      expect(both.body.data).toHaveLength(1);
      const globex = await get('/api/kb/documents/search?q=rotation', otherToken);
      expect(globex.body.data).toEqual([
        expect.objectContaining({
          title: 'Signing key rotation',
          id: await idOf('platform', 'guides/signing-key-rotation.md', 'globex'),
        }),
      ]);
    });

    it('answers at most 20 documents', async () => {
      await ingest(
        Array.from({ length: 22 }, (_, i) => ({
          project_key: 'bulk',
          source_path: `note-${i}.md`,
          content: `# Bulk note ${i}\n\nFiller.\n`,
        })),
      );
      const r = await get('/api/kb/documents/search?q=bulk%20note');
      expect(r.body.data).toHaveLength(20);
    });

    it('validates q: required, 2 to 120 characters once trimmed', async () => {
      for (const q of ['', '?q=', '?q=%20%20a%20%20', `?q=${'x'.repeat(121)}`]) {
        const r = await get(`/api/kb/documents/search${q}`);
        expect(r.status).toBe(422);
        expect(Object.keys(r.body.errors)).toEqual(['q']);
      }
      expect((await get('/api/kb/documents/search?q=ro')).status).toBe(200);
      expect((await get(`/api/kb/documents/search?q=${'x'.repeat(120)}`)).status).toBe(200);
      const tooMany = await get(
        `/api/kb/documents/search?q=rotation&${Array.from({ length: 51 }, (_, i) => `project_keys[]=p${i}`).join('&')}`,
      );
      expect(tooMany.status).toBe(422);
      expect(Object.keys(tooMany.body.errors)).toEqual(['project_keys']);
    });

    it('needs authentication and, for bearer tokens, the kb:read ability', async () => {
      expect((await client().call('GET', '/api/kb/documents/search?q=rotation')).status).toBe(401);
      const chatOnly = await issuer.mint({ scope: 'kb:chat', extra: { tenant_id: 'default' } });
      expect(await get('/api/kb/documents/search?q=rotation', chatOnly)).toMatchObject({
        status: 403,
        body: { error: 'token_ability_forbidden' },
      });
      const reader = await issuer.mint({ scope: 'kb:read', extra: { tenant_id: 'default' } });
      expect((await get('/api/kb/documents/search?q=rotation', reader)).body.data).toHaveLength(5);
    });
  });

  describe('GET /api/kb/documents/{documentId}/preview', () => {
    it('answers the document with its chunks in order, joined by a blank line', async () => {
      const id = await idOf('platform', 'guides/signing-key-rotation.md');
      const r = await get(`/api/kb/documents/${id}/preview`);
      expect(r.status).toBe(200);
      const chunks = await db.query(
        'SELECT text FROM kb_chunks WHERE document_id = $1 ORDER BY ord',
        [id],
      );
      expect(chunks).toHaveLength(2);
      expect(r.body).toEqual({
        document_id: id,
        title: 'Signing key rotation',
        source_path: 'guides/signing-key-rotation.md',
        slug: 'signing-key-rotation',
        project_key: 'platform',
        source_type: 'markdown',
        canonical_type: null,
        canonical_status: null,
        is_canonical: false,
        content: chunks.map((c: { text: string }) => c.text).join('\n\n'),
      });
      const canonical = await get(
        `/api/kb/documents/${await idOf('platform', 'decisions/rotation-policy.md')}/preview`,
      );
      expect(canonical.body).toMatchObject({
        canonical_type: 'decision',
        canonical_status: 'accepted',
        is_canonical: true,
      });
    });

    it("answers 404 for unknown, non-numeric and another tenant's ids", async () => {
      const foreign = await idOf('platform', 'guides/signing-key-rotation.md', 'globex');
      for (const id of [String(foreign), '999999999', 'abc', '0', '1e3']) {
        const r = await get(`/api/kb/documents/${id}/preview`);
        expect(r).toMatchObject({
          status: 404,
          body: { error: 'not_found', message: 'Document not found.' },
        });
      }
      expect((await get(`/api/kb/documents/${foreign}/preview`, otherToken)).status).toBe(200);
    });

    it('gates bearer tokens on kb:read', async () => {
      const id = await idOf('platform', 'guides/token-lifetimes.md');
      const chatOnly = await issuer.mint({ scope: 'kb:chat', extra: { tenant_id: 'default' } });
      expect(await get(`/api/kb/documents/${id}/preview`, chatOnly)).toMatchObject({
        status: 403,
        body: { error: 'token_ability_forbidden' },
      });
    });
  });

  describe('GET /api/kb/resolve-wikilink', () => {
    it('resolves a slug inside a project with a one-line preview of the first chunk', async () => {
      const r = await get('/api/kb/resolve-wikilink?project=platform&slug=token-lifetimes');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        document_id: await idOf('platform', 'guides/token-lifetimes.md'),
        title: 'Token lifetimes',
        source_path: 'guides/token-lifetimes.md',
        canonical_type: null,
        canonical_status: null,
        is_canonical: false,
        preview:
          '# Token lifetimes Access tokens live fifteen minutes by default. Refresh tokens rotate on every use.',
      });
      const written = await get(
        `/api/kb/resolve-wikilink?project=platform&slug=${encodeURIComponent('[[Token Lifetimes]]')}`,
      );
      expect(written.body.document_id).toBe(r.body.document_id);
    });

    it('cuts a long preview at 200 characters and marks the cut', async () => {
      const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
      await ingest([{ project_key: 'platform', source_path: 'long.md', content: words }]);
      const r = await get('/api/kb/resolve-wikilink?project=platform&slug=long');
      expect(r.body.preview).toBe(`${words.slice(0, 200).trimEnd()}…`);
    });

    it('answers 404 outside the project or tenant, and 422 without project or slug', async () => {
      for (const url of [
        '/api/kb/resolve-wikilink?project=support&slug=token-lifetimes',
        '/api/kb/resolve-wikilink?project=platform&slug=missing-page',
      ]) {
        expect(await get(url)).toMatchObject({
          status: 404,
          body: { message: 'Wikilink target not found.' },
        });
      }
      expect(
        (await get('/api/kb/resolve-wikilink?project=platform&slug=token-lifetimes', otherToken))
          .status,
      ).toBe(404);
      const none = await get('/api/kb/resolve-wikilink');
      expect(none.status).toBe(422);
      expect(Object.keys(none.body.errors).sort()).toEqual(['project', 'slug']);
      expect(
        Object.keys((await get('/api/kb/resolve-wikilink?project=platform&slug=%20')).body.errors),
      ).toEqual(['slug']);
    });
  });

  describe('GET /api/kb/related', () => {
    it('answers link neighbours in both directions, titled when the target exists', async () => {
      const r = await get('/api/kb/related?project_key=platform&slugs[]=signing-key-rotation');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        related: [
          { slug: 'missing-page', title: null, direction: 'outgoing' },
          { slug: 'token-lifetimes', title: 'Token lifetimes', direction: 'outgoing' },
          { slug: 'rotation-drill', title: 'Rotation drill', direction: 'incoming' },
        ],
        meta: { count: 3 },
      });
      const two = await get(
        '/api/kb/related?project_key=platform&slugs[]=signing-key-rotation&slugs[]=token-lifetimes',
      );
      expect(two.body.related.map((x: { slug: string }) => x.slug)).toEqual([
        'missing-page',
        'rotation-drill',
      ]);
    });

    it('stays inside the project and the tenant', async () => {
      expect(
        (await get('/api/kb/related?project_key=support&slugs[]=signing-key-rotation')).body,
      ).toEqual({ related: [], meta: { count: 0 } });
      expect((await get('/api/kb/related?slugs[]=signing-key-rotation', otherToken)).body).toEqual({
        related: [],
        meta: { count: 0 },
      });
    });

    it('needs at least one slug', async () => {
      for (const url of [
        '/api/kb/related?project_key=platform',
        '/api/kb/related?project_key=platform&slugs[]=',
      ]) {
        const r = await get(url);
        expect(r.status).toBe(422);
        expect(Object.keys(r.body.errors)[0]).toMatch(/^slugs/);
      }
    });
  });

  describe('GET /api/kb/collections', () => {
    it("lists the tenant's collections by name", async () => {
      expect((await get('/api/kb/collections')).body).toEqual({
        data: [
          { id: architectureCollection, name: 'Architecture' },
          { id: securityCollection, name: 'Security' },
        ],
      });
      expect(
        (await get('/api/kb/collections', otherToken)).body.data.map(
          (c: { name: string }) => c.name,
        ),
      ).toEqual(['Globex handbook']);
      expect((await client().call('GET', '/api/kb/collections')).status).toBe(401);
    });

    it('scopes chat retrieval through the documents that name a collection', async () => {
      const question = 'When is a new signing key published in the JWKS?';
      const inSecurity = await client().call('POST', '/api/kb/chat', {
        token,
        body: { question, filters: { collection_id: securityCollection } },
      });
      expect(inSecurity.body.refusal_reason).toBeNull();
      expect(inSecurity.body.citations[0].source_path).toBe('guides/signing-key-rotation.md');
      const inArchitecture = await client().call('POST', '/api/kb/chat', {
        token,
        body: { question, filters: { collection_id: architectureCollection } },
      });
      expect(inArchitecture.body.refusal_reason).toBe('no_relevant_context');
    });
  });

  describe('POST /api/kb/feedback', () => {
    const chunkOf = async (projectKey: string, sourcePath: string, tenant = 'default') => {
      const [row] = await db.query(
        'SELECT c.id::int AS id FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id WHERE d.tenant_id = $1 AND d.project_key = $2 AND d.source_path = $3 ORDER BY c.ord LIMIT 1',
        [tenant, projectKey, sourcePath],
      );
      return row.id as number;
    };

    it('records one signal per user and chunk, the latest winning', async () => {
      const chunk = await chunkOf('platform', 'guides/token-lifetimes.md');
      const first = await client().call('POST', '/api/kb/feedback', {
        token,
        body: { chunk_id: chunk, signal: 'not_relevant' },
      });
      expect(first).toMatchObject({
        status: 200,
        body: { chunk_id: chunk, signal: 'not_relevant' },
      });
      const second = await client().call('POST', '/api/kb/feedback', {
        token,
        body: { chunk_id: chunk, signal: 'should_have_cited' },
      });
      expect(second.body).toEqual({ chunk_id: chunk, signal: 'should_have_cited' });
      const rows = await db.query(
        'SELECT signal, tenant_id, chunk_hash FROM kb_chunk_feedback WHERE chunk_id = $1',
        [chunk],
      );
      const [{ chunk_hash }] = await db.query('SELECT chunk_hash FROM kb_chunks WHERE id = $1', [
        chunk,
      ]);
      expect(rows).toEqual([{ signal: 'should_have_cited', tenant_id: 'default', chunk_hash }]);
    });

    it("answers 404 for a missing chunk or another tenant's, and validates the body", async () => {
      const foreign = await chunkOf('platform', 'guides/signing-key-rotation.md', 'globex');
      for (const chunkId of [foreign, 987654321]) {
        expect(
          await client().call('POST', '/api/kb/feedback', {
            token,
            body: { chunk_id: chunkId, signal: 'not_relevant' },
          }),
        ).toMatchObject({
          status: 404,
          body: { error: 'not_found' },
        });
      }
      const bad = await client().call('POST', '/api/kb/feedback', {
        token,
        body: { chunk_id: '12', signal: 'meh' },
      });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['chunk_id', 'signal']);
      expect(
        (
          await client().call('POST', '/api/kb/feedback', {
            token,
            body: { signal: 'not_relevant' },
          })
        ).status,
      ).toBe(422);
      const service = await issuer.mint({
        scope: 'kb:read kb:chat',
        extra: { tenant_id: 'default' },
      });
      expect(
        (
          await client().call('POST', '/api/kb/feedback', {
            token: service,
            body: { chunk_id: foreign, signal: 'not_relevant' },
          })
        ).status,
      ).toBe(403);
    });
  });

  describe('DELETE /api/kb/documents', () => {
    it('soft-deletes by default: the document leaves search, preview, wikilinks, related and chat, its chunks stay', async () => {
      const id = await idOf('platform', 'runbooks/rotation-drill.md');
      const chunk = (
        await db.query('SELECT id::int AS id FROM kb_chunks WHERE document_id = $1', [id])
      )[0].id;
      const question = 'Is the rotation drill practised every quarter?';
      const cited = async () =>
        (
          await client().call('POST', '/api/kb/chat', { token, body: { question } })
        ).body.citations.map((c: { document_id: number }) => c.document_id);
      expect(await cited()).toContain(id);
      const r = await client().call('DELETE', '/api/kb/documents', {
        token,
        body: {
          documents: [{ project_key: 'platform', source_path: '\\runbooks//rotation-drill.md/' }],
        },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        deleted: 1,
        missing: 0,
        documents: [
          {
            project_key: 'platform',
            source_path: 'runbooks/rotation-drill.md',
            document_id: id,
            mode: 'soft',
            file_deleted: false,
            status: 'deleted',
          },
        ],
      });
      expect(
        (await db.query('SELECT count(*)::int AS n FROM kb_chunks WHERE document_id = $1', [id]))[0]
          .n,
      ).toBeGreaterThan(0);
      expect((await get(`/api/kb/documents/${id}/preview`)).status).toBe(404);
      expect((await get('/api/kb/documents/search?q=rotation%20drill')).body.data).toEqual([]);
      expect(
        (await get('/api/kb/resolve-wikilink?project=platform&slug=rotation-drill')).status,
      ).toBe(404);
      expect(
        (await get('/api/kb/related?project_key=platform&slugs[]=signing-key-rotation')).body.meta
          .count,
      ).toBe(2);
      expect(
        (
          await client().call('POST', '/api/kb/feedback', {
            token,
            body: { chunk_id: chunk, signal: 'not_relevant' },
          })
        ).status,
      ).toBe(404);
      expect(await cited()).not.toContain(id);
      const again = await client().call('DELETE', '/api/kb/documents', {
        token,
        body: {
          documents: [{ project_key: 'platform', source_path: 'runbooks/rotation-drill.md' }],
        },
      });
      expect(again.body).toEqual({
        deleted: 0,
        missing: 1,
        documents: [
          {
            project_key: 'platform',
            source_path: 'runbooks/rotation-drill.md',
            document_id: null,
            status: 'not_found',
          },
        ],
      });
    });

    it('hard-deletes with force: row, chunks, links and stored file go; a soft-deleted document can be purged', async () => {
      const id = await idOf('platform', 'guides/token-lifetimes.md');
      const [{ storage_key }] = await db.query(
        'SELECT storage_key FROM kb_documents WHERE id = $1',
        [id],
      );
      const file = path.join(process.env.KB_STORAGE_PATH!, storage_key);
      expect(existsSync(file)).toBe(true);
      const drill = await idOf('platform', 'runbooks/rotation-drill.md');
      const r = await client().call('DELETE', '/api/kb/documents', {
        token,
        body: {
          force: true,
          documents: [
            { project_key: 'platform', source_path: 'guides/token-lifetimes.md' },
            { project_key: 'platform', source_path: 'runbooks/rotation-drill.md' },
            { project_key: 'platform', source_path: 'guides/never-was.md' },
          ],
        },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        deleted: 2,
        missing: 1,
        documents: [
          {
            project_key: 'platform',
            source_path: 'guides/token-lifetimes.md',
            document_id: id,
            mode: 'hard',
            file_deleted: true,
            status: 'deleted',
          },
          {
            project_key: 'platform',
            source_path: 'runbooks/rotation-drill.md',
            document_id: drill,
            mode: 'hard',
            file_deleted: true,
            status: 'deleted',
          },
          {
            project_key: 'platform',
            source_path: 'guides/never-was.md',
            document_id: null,
            status: 'not_found',
          },
        ],
      });
      expect(existsSync(file)).toBe(false);
      for (const table of [
        'kb_documents WHERE id',
        'kb_chunks WHERE document_id',
        'kb_document_links WHERE document_id',
        'kb_chunk_feedback WHERE document_id',
      ]) {
        expect(
          (
            await db.query(`SELECT count(*)::int AS n FROM ${table} = ANY($1::bigint[])`, [
              [id, drill],
            ])
          )[0].n,
        ).toBe(0);
      }
      // The link to the purged document is now dangling.
      expect(
        (await get('/api/kb/related?project_key=platform&slugs[]=signing-key-rotation')).body
          .related,
      ).toContainEqual({ slug: 'token-lifetimes', title: null, direction: 'outgoing' });
    });

    it("only touches the caller's tenant, and uses the default project when none is named", async () => {
      const r = await client().call('DELETE', '/api/kb/documents', {
        token: otherToken,
        body: {
          documents: [
            { project_key: 'support', source_path: 'rotation-faq.md' },
            { source_path: 'guides/signing-key-rotation.md' },
          ],
        },
      });
      expect(r.body).toMatchObject({ deleted: 0, missing: 2 });
      expect(r.body.documents[1]).toMatchObject({ project_key: 'default', status: 'not_found' });
      expect(
        (
          await db.query(
            `SELECT count(*)::int AS n FROM kb_documents WHERE tenant_id = 'default' AND source_path = 'rotation-faq.md' AND deleted_at IS NULL`,
          )
        )[0].n,
      ).toBe(1);
    });

    it('validates the whole batch before deleting anything', async () => {
      const bad = await client().call('DELETE', '/api/kb/documents', {
        token,
        body: {
          documents: [
            { project_key: 'support', source_path: 'rotation-faq.md' },
            { project_key: 'support', source_path: '../escape.md' },
          ],
        },
      });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors)).toEqual(['documents.1.source_path']);
      // null is not "the default project": refused by name, and the batch deletes nothing.
      const nulled = await client().call('DELETE', '/api/kb/documents', {
        token,
        body: {
          documents: [
            { project_key: 'support', source_path: 'rotation-faq.md' },
            { project_key: null, source_path: 'rotation-faq.md' },
          ],
        },
      });
      expect([nulled.status, Object.keys(nulled.body.errors)]).toEqual([422, ['documents.1.project_key']]);
      expect(
        (
          await db.query(
            `SELECT count(*)::int AS n FROM kb_documents WHERE source_path = 'rotation-faq.md' AND deleted_at IS NULL`,
          )
        )[0].n,
      ).toBe(1);
      for (const body of [
        { documents: [] },
        { documents: Array.from({ length: 101 }, (_, i) => ({ source_path: `d${i}.md` })) },
        { documents: [{ source_path: 'x.md' }], force: 'yes' },
        {},
      ]) {
        expect((await client().call('DELETE', '/api/kb/documents', { token, body })).status).toBe(
          422,
        );
      }
      expect(
        (
          await client().call('DELETE', '/api/kb/documents', {
            body: { documents: [{ source_path: 'x.md' }] },
          })
        ).status,
      ).toBe(401);
    });

    it('brings a soft-deleted document back when it is ingested again', async () => {
      await client().call('DELETE', '/api/kb/documents', {
        token,
        body: { documents: [{ project_key: 'support', source_path: 'rotation-faq.md' }] },
      });
      expect((await get('/api/kb/documents/search?q=faq')).body.data).toEqual([]);
      await ingest([
        {
          project_key: 'support',
          source_path: 'rotation-faq.md',
          content: '# FAQ\n\nAnswers for the support desk, revised.\n',
        },
      ]);
      expect(
        (await get('/api/kb/documents/search?q=faq')).body.data.map(
          (d: { title: string }) => d.title,
        ),
      ).toEqual(['FAQ']);
    });
  });
});
