import { ReviewLogEntry, ReviewResult } from '@platform/evidence-engine';
import { createTestDatabase, TestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../data-source';
import { migrations } from '../../migrations';
import { ReviewLogRepository } from './review-log.repository';

const entry = (reviewId: string, artifactId: string, reviewedAt = '2026-01-01T00:00:00.000Z', answer = 'x'): ReviewLogEntry => {
  const result = {
    review_id: reviewId,
    artifact_id: artifactId,
    profile_key: 'default',
    verdict: 'keep',
    findings: [],
    claim_verdicts: {},
    claim_gaps: {},
    source_tiers: {},
    risk_score: 0,
    budget: { llm_calls: 0, tokens: 0, heavy_checks: 0, wall_seconds: 0 },
    reviewed_at: reviewedAt,
    metadata: { dry_run: false, heavy_checks_run: false, llm_enabled: false, answer },
  } as unknown as ReviewResult;
  return {
    artifact: { artifact_id: artifactId, answer_text: answer, question: null, tenant_id: 't', claims: [], sources: [], metadata: {} },
    options: { profile_key: null, budget: {}, label_via_llm: false, dry_run: false, reviewed_at: reviewedAt },
    result,
  };
};

/** The review log against a real Postgres, migrated as the service migrates it. */
describe('ReviewLogRepository (Postgres)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let repo: ReviewLogRepository;

  const options = () => dataSourceOptions({ DATABASE_URL: database.serverUrl, DATABASE_NAME: database.name, DATABASE_PREPARE_AFTER: 3 });
  const ids = async (tenant: string) => (await repo.list(tenant, { page: 1, perPage: 100 })).data.map((r: { artifact_id: string }) => r.artifact_id);

  beforeAll(async () => {
    database = await createTestDatabase('evidence_log');
    // Migrated up to the log as it was, so the migration that makes review ids unique meets duplicates.
    const before = await new DataSource({ ...options(), migrations: migrations.slice(0, 2) }).initialize();
    await before.runMigrations({ transaction: 'each' });
    // Rows as the repository wrote them then (a plain INSERT: no unique index to conflict on).
    for (const [reviewId, artifactId] of [['rev_dup', 'first'], ['rev_dup', 'second'], ['rev_other', 'other']]) {
      const { result } = entry(reviewId, artifactId);
      await before.query(
        `INSERT INTO evidence_review_logs (tenant_id, review_id, artifact_id, profile_key, risk_score, result, artifact, options, reviewed_at)
         VALUES ('old', $1, $2, 'default', 0, $3, '{}', '{}', now())`,
        [reviewId, artifactId, JSON.stringify(result)],
      );
    }
    await before.destroy();
    db = await new DataSource(options()).initialize();
    await db.runMigrations({ transaction: 'each' });
    repo = new ReviewLogRepository(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps the first row of each review id already logged twice when migrating', async () => {
    expect(await ids('old')).toEqual(['other', 'first']);
    expect(JSON.parse((await repo.find('old', 'rev_dup'))!).artifact_id).toBe('first');
  });

  it('isolates a row Postgres refuses: the other reviews of its batch are logged, it alone fails', async () => {
    // Appends made together share one INSERT: the first goes alone, the rest wait and go as one batch.
    const appends = [
      repo.append('batch', entry('rev_b0', 'b0')),
      repo.append('batch', entry('rev_b1', 'b1')),
      // Year 0 and a lone surrogate are refused by the request's validation; here they stand for any
      // row the database refuses.
      repo.append('batch', entry('rev_bad_year', 'bad-year', '0000-01-01T00:00:00.000Z')),
      repo.append('batch', entry('rev_b2', 'b2')),
      repo.append('batch', entry('rev_bad_text', 'bad-text', undefined, 'x \ud800')),
      repo.append('batch', entry('rev_b3', 'b3')),
    ];
    const outcomes = await Promise.allSettled(appends);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await ids('batch')).toEqual(['b3', 'b2', 'b1', 'b0']);
  });

  it('keeps one row per review id and tenant, the first; the same id in another tenant is its own', async () => {
    await repo.append('dup', entry('rev_same', 'first-copy', '2026-01-01T00:00:00.000Z'));
    await Promise.all([repo.append('dup', entry('rev_same', 'second-copy', '2026-02-01T00:00:00.000Z')), repo.append('dup', entry('rev_same', 'third-copy'))]);
    await repo.append('dup-other', entry('rev_same', 'other-tenant'));
    expect(await ids('dup')).toEqual(['first-copy']);
    expect(JSON.parse((await repo.find('dup', 'rev_same'))!).artifact_id).toBe('first-copy');
    expect(await ids('dup-other')).toEqual(['other-tenant']);
  });

  it('lists in the order reviews were logged, whatever reviewed_at they carry', async () => {
    await repo.append('order', entry('rev_o1', 'logged-1', '9999-12-31T23:59:59.000Z'));
    await repo.append('order', entry('rev_o2', 'logged-2', '2026-01-01T00:00:00.000Z'));
    await repo.append('order', entry('rev_o3', 'logged-3', '1970-01-01T00:00:00.000Z'));
    expect(await ids('order')).toEqual(['logged-3', 'logged-2', 'logged-1']);
  });
});
