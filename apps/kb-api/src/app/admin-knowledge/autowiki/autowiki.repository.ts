import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource, EntityManager } from 'typeorm';
import { containsPattern, PageWindow } from '../../admin/pagination';
import type { ConceptCandidate, ExistingConcept } from './concepts';

export interface ConceptRow {
  id: number;
  key: string;
  label: string;
  kind: 'heading' | 'term';
  aliases: string[];
  document_count: number;
  built_at: Date;
}

export interface ConceptDocumentRow {
  id: number;
  slug: string;
  title: string;
  project_key: string;
  source_path: string;
  source_type: string;
  occurrences: number;
}

export interface WikiPageWrite {
  concept_id: number;
  slug: string;
  title: string;
  body: string;
  document_count: number;
}

const CONCEPT = 'c.id::int AS id, c.key, c.label, c.kind, c.aliases, c.document_count, c.built_at';
const PAGE = 'p.concept_id::int AS concept_id, p.slug, p.title, p.document_count, p.built_at';

/** Two builds of one tenant at once would race on the same concept keys: their writes take turns. */
const lockBuild = (tx: EntityManager, tenantId: string) => tx.query(`SELECT pg_advisory_xact_lock(hashtext('kb.wiki-build:' || $1))`, [tenantId]);

/** kb_concepts, kb_concept_documents and kb_wiki_pages; every statement takes the tenant. */
@Injectable()
export class AutowikiRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async existing(tenantId: string): Promise<ExistingConcept[]> {
    return this.db.query('SELECT id::int AS id, key, aliases, suppressed FROM kb_concepts WHERE tenant_id = $1', [tenantId]);
  }

  /**
   * Replaces the tenant's concepts with a build's, in one transaction: concepts keep their ids by
   * key, ones no longer found go (suppressed ones stay, so a rebuild does not bring them back).
   * Returns each concept's id by key.
   */
  async replaceConcepts(tenantId: string, concepts: ConceptCandidate[]): Promise<Map<string, number>> {
    return this.db.transaction(async (tx) => {
      await lockBuild(tx, tenantId);
      const ids = new Map<string, number>();
      const rows = concepts.length
        ? await queryRows<{ id: number; key: string }>(
            tx,
            `INSERT INTO kb_concepts (tenant_id, key, label, kind, document_count, built_at)
             SELECT $1, t.key, t.label, t.kind, t.n, now() FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS t(key, label, kind, n)
             ON CONFLICT (tenant_id, key) DO UPDATE SET label = EXCLUDED.label, kind = EXCLUDED.kind, document_count = EXCLUDED.document_count, built_at = now()
             RETURNING id::int AS id, key`,
            [tenantId, concepts.map((c) => c.key), concepts.map((c) => c.label), concepts.map((c) => c.kind), concepts.map((c) => c.documents.size)],
          )
        : [];
      for (const r of rows) ids.set(r.key, r.id);
      await tx.query('DELETE FROM kb_concepts WHERE tenant_id = $1 AND NOT suppressed AND NOT (key = ANY($2::text[]))', [tenantId, concepts.map((c) => c.key)]);
      await tx.query('DELETE FROM kb_concept_documents WHERE tenant_id = $1', [tenantId]);
      const links = concepts.flatMap((c) => [...c.documents].map(([doc, n]) => [ids.get(c.key)!, doc, n]));
      if (links.length) {
        await tx.query(
          `INSERT INTO kb_concept_documents (tenant_id, concept_id, document_id, occurrences)
           SELECT $1, t.c, t.d, t.n FROM unnest($2::bigint[], $3::bigint[], $4::int[]) AS t(c, d, n)`,
          [tenantId, links.map((l) => l[0]), links.map((l) => l[1]), links.map((l) => l[2])],
        );
      }
      return ids;
    });
  }

  async documentsByIds(tenantId: string, ids: number[]): Promise<Array<Omit<ConceptDocumentRow, 'occurrences'>>> {
    if (!ids.length) return [];
    return this.db.query(
      'SELECT id::int AS id, slug, title, project_key, source_path, source_type FROM kb_documents WHERE tenant_id = $1 AND id = ANY($2::bigint[]) AND deleted_at IS NULL',
      [tenantId, ids],
    );
  }

  /** Replaces the pages of the given concepts (all the tenant's when `all`). */
  async writePages(tenantId: string, pages: WikiPageWrite[], all: boolean): Promise<void> {
    await this.db.transaction(async (tx: EntityManager) => {
      await lockBuild(tx, tenantId);
      if (all) await tx.query('DELETE FROM kb_wiki_pages WHERE tenant_id = $1', [tenantId]);
      else await tx.query('DELETE FROM kb_wiki_pages WHERE tenant_id = $1 AND concept_id = ANY($2::bigint[])', [tenantId, pages.map((p) => p.concept_id)]);
      if (!pages.length) return;
      await tx.query(
        `INSERT INTO kb_wiki_pages (tenant_id, concept_id, slug, title, body, document_count)
         SELECT $1, t.c, t.s, t.t, t.b, t.n FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[]) AS t(c, s, t, b, n)`,
        [tenantId, pages.map((p) => p.concept_id), pages.map((p) => p.slug), pages.map((p) => p.title), pages.map((p) => p.body), pages.map((p) => p.document_count)],
      );
    });
  }

  async listConcepts(tenantId: string, search: string | undefined, w: PageWindow): Promise<{ rows: ConceptRow[]; total: number }> {
    const where = `c.tenant_id = $1 AND NOT c.suppressed AND ($2::text IS NULL OR c.label ILIKE $2 OR c.key ILIKE $2)`;
    const params = [tenantId, containsPattern(search)];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_concepts c WHERE ${where}`, params);
    const rows = await this.db.query(`SELECT ${CONCEPT} FROM kb_concepts c WHERE ${where} ORDER BY c.document_count DESC, c.key LIMIT $3 OFFSET $4`, [...params, w.perPage, w.offset]);
    return { rows, total };
  }

  async concept(tenantId: string, id: string): Promise<ConceptRow | null> {
    const [row] = await this.db.query(`SELECT ${CONCEPT} FROM kb_concepts c WHERE c.tenant_id = $1 AND c.id = $2 AND NOT c.suppressed`, [tenantId, id]);
    return row ?? null;
  }

  async conceptDocuments(tenantId: string, conceptId: number | string): Promise<ConceptDocumentRow[]> {
    return this.db.query(
      `SELECT d.id::int AS id, d.slug, d.title, d.project_key, d.source_path, d.source_type, cd.occurrences
         FROM kb_concept_documents cd JOIN kb_documents d ON d.id = cd.document_id
        WHERE cd.tenant_id = $1 AND cd.concept_id = $2 AND d.deleted_at IS NULL
        ORDER BY cd.occurrences DESC, d.id`,
      [tenantId, conceptId],
    );
  }

  /** Moves a concept's documents and names into another, and deletes it. */
  async merge(tenantId: string, sourceId: string, targetId: string): Promise<void> {
    await this.db.transaction(async (tx: EntityManager) => {
      await tx.query(
        `INSERT INTO kb_concept_documents (tenant_id, concept_id, document_id, occurrences)
         SELECT tenant_id, $3, document_id, occurrences FROM kb_concept_documents WHERE tenant_id = $1 AND concept_id = $2
         ON CONFLICT (concept_id, document_id) DO UPDATE SET occurrences = kb_concept_documents.occurrences + EXCLUDED.occurrences`,
        [tenantId, sourceId, targetId],
      );
      await tx.query(
        `UPDATE kb_concepts t SET aliases = ARRAY(SELECT DISTINCT a FROM unnest(t.aliases || s.key || s.aliases) a WHERE a <> t.key ORDER BY a),
                document_count = (SELECT count(*)::int FROM kb_concept_documents cd WHERE cd.concept_id = t.id)
           FROM kb_concepts s WHERE t.tenant_id = $1 AND t.id = $3 AND s.tenant_id = $1 AND s.id = $2`,
        [tenantId, sourceId, targetId],
      );
      await tx.query('DELETE FROM kb_concepts WHERE tenant_id = $1 AND id = $2', [tenantId, sourceId]);
    });
  }

  /** Deletes a concept for good: its documents and page go, and the key stays suppressed so a rebuild skips it. */
  async suppress(tenantId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx: EntityManager) => {
      const rows = await queryRows(tx, 'UPDATE kb_concepts SET suppressed = true, document_count = 0 WHERE tenant_id = $1 AND id = $2 AND NOT suppressed RETURNING id', [tenantId, id]);
      if (!rows.length) return false;
      await tx.query('DELETE FROM kb_concept_documents WHERE tenant_id = $1 AND concept_id = $2', [tenantId, id]);
      await tx.query('DELETE FROM kb_wiki_pages WHERE tenant_id = $1 AND concept_id = $2', [tenantId, id]);
      return true;
    });
  }

  async listPages(tenantId: string, search: string | undefined, w: PageWindow) {
    const where = `p.tenant_id = $1 AND ($2::text IS NULL OR p.title ILIKE $2)`;
    const params = [tenantId, containsPattern(search)];
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM kb_wiki_pages p WHERE ${where}`, params);
    const rows = await this.db.query(`SELECT ${PAGE} FROM kb_wiki_pages p WHERE ${where} ORDER BY p.document_count DESC, p.title, p.concept_id LIMIT $3 OFFSET $4`, [...params, w.perPage, w.offset]);
    return { rows, total };
  }

  async page(tenantId: string, conceptId: string) {
    const [row] = await this.db.query(`SELECT ${PAGE}, p.body FROM kb_wiki_pages p WHERE p.tenant_id = $1 AND p.concept_id = $2`, [tenantId, conceptId]);
    return row ?? null;
  }
}
