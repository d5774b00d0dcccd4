import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per review and the log in the order it was written.
 *
 * A review id names one review (a hash of the request, its tenant and the profile), and
 * GET /reviews/{id} serves it "byte for byte as first returned"; but a re-sent request appended a
 * second row with the same id, and the read took the newest. A unique index makes the first row
 * the only one (the repository inserts with ON CONFLICT DO NOTHING). Later copies already stored
 * are removed first, keeping each id's first row: the one it was first answered with.
 *
 * The list was ordered by reviewed_at, which a client may set (options.reviewed_at, a replay), so
 * a review dated 9999 stayed first in the tenant's log forever and one dated 1970 sank out of
 * sight. It is ordered by the row id (the order rows were written) now; this index serves that.
 */
export class ReviewLogOneRowPerReview1764200000000 implements MigrationInterface {
  name = 'ReviewLogOneRowPerReview1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // Writers wait until the index exists (the migration runs in one transaction): a row written
    // between the clean-up and the index would fail the index build and the deploy with it.
    await q.query('LOCK TABLE evidence_review_logs IN SHARE ROW EXCLUSIVE MODE');
    // One pass with a window, linear in the rows (a self-join pairs every copy with every other).
    await q.query(`DELETE FROM evidence_review_logs WHERE id IN (
      SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY tenant_id, review_id ORDER BY id) AS copy FROM evidence_review_logs) ranked
       WHERE copy > 1)`);
    await q.query('DROP INDEX evidence_review_logs_review');
    await q.query('CREATE UNIQUE INDEX evidence_review_logs_review ON evidence_review_logs (tenant_id, review_id)');
    await q.query('DROP INDEX evidence_review_logs_tenant_time');
    await q.query('CREATE INDEX evidence_review_logs_tenant_logged ON evidence_review_logs (tenant_id, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX evidence_review_logs_tenant_logged');
    await q.query('CREATE INDEX evidence_review_logs_tenant_time ON evidence_review_logs (tenant_id, reviewed_at DESC, id DESC)');
    await q.query('DROP INDEX evidence_review_logs_review');
    await q.query('CREATE INDEX evidence_review_logs_review ON evidence_review_logs (tenant_id, review_id)');
  }
}
