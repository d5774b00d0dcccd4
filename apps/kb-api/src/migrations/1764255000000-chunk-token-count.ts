import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each chunk's length in tokens, stored when the chunk is written: BM25 normalises by it, and the
 * ranking used to count it at query time by unnesting every candidate's whole vector (every
 * lexeme's positions and weights), the largest part of a question's database time over 100,000
 * chunks (docs/benchmarks.md). The count is kb_tsv_tokens of the same expression as `tsv` (a
 * generated column cannot read another), so it always agrees with `tsv` and with the tokens
 * kb_chunk_totals sums. Adding a stored generated column rewrites kb_chunks once.
 */
export class KbChunkTokenCount1764255000000 implements MigrationInterface {
  name = 'KbChunkTokenCount1764255000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE kb_chunks ADD COLUMN tokens integer GENERATED ALWAYS AS (
        kb_tsv_tokens(
          setweight(to_tsvector(language, doc_title), 'A') ||
          setweight(to_tsvector(language, coalesce(heading_path, '')), 'B') ||
          setweight(to_tsvector(language, text), 'D')
        )::integer
      ) STORED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE kb_chunks DROP COLUMN tokens');
  }
}
