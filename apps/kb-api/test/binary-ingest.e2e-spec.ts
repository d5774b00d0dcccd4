import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { buildDocx, buildPdf } from './document-files';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const PDF_MIME = 'application/pdf';
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('kb-api ingest of PDF and DOCX: converted in the worker, searchable in chat', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let token: string;
  const client = () => new KbClient(svc.url);

  const waitIndexed = async (ids: number[]) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows: Array<{ status: string; error: string | null }> = await db.query(
        'SELECT status, error FROM kb_documents WHERE id = ANY($1::bigint[])',
        [ids],
      );
      if (rows.every((r) => r.status === 'indexed')) return;
      if (Date.now() > deadline) throw new Error(`not indexed: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    await createUser(db, { email: 'reader@example.com', roles: ['viewer'] });
    token = (
      await client().call('POST', '/api/auth/token', {
        body: { email: 'reader@example.com', password: 'correct horse battery staple' },
      })
    ).body.token;

    const pdf = buildPdf(
      [
        [
          { text: 'Incident response handbook', size: 20 },
          { text: 'Page the on-call engineer through the escalation rota.' },
        ],
        [
          { text: 'Postmortems', size: 16 },
          {
            text: 'A blameless postmortem is written within five working days of every severity one incident.',
          },
        ],
      ],
      'Incident response handbook',
    );
    const docx = buildDocx([
      { heading: 1, text: 'Travel policy' },
      { text: 'Employees book trains for trips under four hours.' },
      { heading: 2, text: 'Expense receipts' },
      { text: 'Receipts for hotel stays are uploaded to the expense tool within thirty days.' },
    ]);
    const r = await client().call('POST', '/api/kb/ingest', {
      token,
      body: {
        documents: [
          {
            project_key: 'ops',
            source_path: 'handbooks/incident-response.pdf',
            mime_type: PDF_MIME,
            content: pdf.toString('base64'),
          },
          {
            project_key: 'people',
            source_path: 'policies/travel.docx',
            mime_type: DOCX_MIME,
            content: docx.toString('base64'),
          },
        ],
      },
    });
    expect(r.status).toBe(202);
    await waitIndexed(r.body.documents.map((d: { document_id: number }) => d.document_id));
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
  });

  it('indexes a PDF one page per chunk, titled from the document', async () => {
    const rows = await db.query(
      `SELECT d.title, d.source_type, c.heading_path, c.text FROM kb_documents d JOIN kb_chunks c ON c.document_id = d.id WHERE d.source_path = 'handbooks/incident-response.pdf' ORDER BY c.ord`,
    );
    expect(rows.map((r: { heading_path: string }) => r.heading_path)).toEqual(['Page 1', 'Page 2']);
    expect(rows[0]).toMatchObject({ title: 'Incident response handbook', source_type: 'pdf' });
    expect(rows[1].text).toContain('blameless postmortem is written within five working days');
  });

  it('indexes a DOCX by its headings', async () => {
    const rows = await db.query(
      `SELECT d.title, d.source_type, c.heading_path, c.text FROM kb_documents d JOIN kb_chunks c ON c.document_id = d.id WHERE d.source_path = 'policies/travel.docx' ORDER BY c.ord`,
    );
    expect(rows.map((r: { heading_path: string }) => r.heading_path)).toEqual([
      'Travel policy',
      'Travel policy > Expense receipts',
    ]);
    expect(rows[0]).toMatchObject({ title: 'Travel policy', source_type: 'docx' });
  });

  it('answers chat questions from both, citing them', async () => {
    const pdf = await client().call('POST', '/api/kb/chat', {
      token,
      body: { question: 'Within how many working days is a blameless postmortem written?' },
    });
    expect(pdf.body.refusal_reason).toBeNull();
    expect(pdf.body.citations[0]).toMatchObject({
      source_path: 'handbooks/incident-response.pdf',
      source_type: 'pdf',
      project_key: 'ops',
      title: 'Incident response handbook',
    });
    expect(pdf.body.answer).toMatch(/five working days/);

    const docx = await client().call('POST', '/api/kb/chat', {
      token,
      body: {
        question: 'When are hotel receipts uploaded to the expense tool?',
        filters: { source_types: ['docx'] },
      },
    });
    expect(docx.body.refusal_reason).toBeNull();
    expect(docx.body.citations[0]).toMatchObject({
      source_path: 'policies/travel.docx',
      source_type: 'docx',
      title: 'Travel policy',
    });
    expect(docx.body.answer).toMatch(/thirty days/);
  });

  it('finds them in document search and previews their text', async () => {
    const found = await client().call('GET', '/api/kb/documents/search?q=travel', { token });
    expect(found.body.data).toEqual([
      expect.objectContaining({
        title: 'Travel policy',
        source_type: 'docx',
        source_path: 'policies/travel.docx',
      }),
    ]);
    const preview = await client().call(
      'GET',
      `/api/kb/documents/${found.body.data[0].id}/preview`,
      { token },
    );
    expect(preview.body.content).toContain('## Expense receipts');
    expect(preview.body.content).toContain('within thirty days');
  });
});
