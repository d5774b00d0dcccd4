import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables of KbAdminKnowledgeModule: synonym sets read by retrieval, per-tenant admin settings
 * (analysis, auto-wiki, evidence tiers), stored analyses, resolved content gaps and the auto-wiki's
 * concepts with their documents and generated pages.
 */
export class KbAdminKnowledge1764120000000 implements MigrationInterface {
  name = 'KbAdminKnowledge1764120000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_synonym_sets (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        project_key text,
        terms text[] NOT NULL CHECK (cardinality(terms) >= 2),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_synonym_sets_tenant_idx ON kb_synonym_sets (tenant_id, project_key, id)');

    await q.query(`
      CREATE TABLE kb_admin_settings (
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        kind text NOT NULL CHECK (kind IN ('analysis', 'autowiki', 'evidence_tiers')),
        value jsonb NOT NULL,
        updated_by bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, kind)
      )`);

    await q.query(`
      CREATE TABLE kb_analyses (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        project_key text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('coverage')),
        result jsonb NOT NULL,
        created_by bigint,
        duration_ms integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_analyses_tenant_idx ON kb_analyses (tenant_id, project_key, id DESC)');

    // A gap is a normalised question; resolving it hides the questions asked up to that moment.
    await q.query(`
      CREATE TABLE kb_content_gap_resolutions (
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        gap_id text NOT NULL,
        question text NOT NULL,
        note text,
        resolved_by bigint,
        resolved_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, gap_id)
      )`);
    // Metrics windows, time series and content gaps read the chat log by tenant and time.
    await q.query('CREATE INDEX IF NOT EXISTS kb_chat_logs_tenant_time_idx ON kb_chat_logs (tenant_id, created_at)');

    await q.query(`
      CREATE TABLE kb_concepts (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        key text NOT NULL,
        label text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('heading', 'term')),
        aliases text[] NOT NULL DEFAULT '{}',
        suppressed boolean NOT NULL DEFAULT false,
        document_count integer NOT NULL DEFAULT 0,
        built_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, key)
      )`);
    await q.query('CREATE INDEX kb_concepts_rank_idx ON kb_concepts (tenant_id, document_count DESC, id) WHERE NOT suppressed');
    await q.query('CREATE INDEX kb_concepts_aliases_idx ON kb_concepts USING gin (aliases)');
    await q.query(`
      CREATE TABLE kb_concept_documents (
        tenant_id text NOT NULL,
        concept_id bigint NOT NULL REFERENCES kb_concepts(id) ON DELETE CASCADE,
        document_id bigint NOT NULL REFERENCES kb_documents(id) ON DELETE CASCADE,
        occurrences integer NOT NULL,
        PRIMARY KEY (concept_id, document_id)
      )`);
    await q.query('CREATE INDEX kb_concept_documents_document_idx ON kb_concept_documents (tenant_id, document_id)');
    await q.query(`
      CREATE TABLE kb_wiki_pages (
        concept_id bigint PRIMARY KEY REFERENCES kb_concepts(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        slug text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        document_count integer NOT NULL,
        built_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, slug)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS kb_chat_logs_tenant_time_idx');
    for (const t of ['kb_wiki_pages', 'kb_concept_documents', 'kb_concepts', 'kb_content_gap_resolutions', 'kb_analyses', 'kb_admin_settings', 'kb_synonym_sets'])
      await q.query(`DROP TABLE ${t}`);
  }
}
