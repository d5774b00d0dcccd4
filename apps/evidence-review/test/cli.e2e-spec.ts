import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from '@platform/database';
import { createReviewEngine } from '@platform/evidence-engine';
import { createTestDatabase, TestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { CliIo, logCommand, profilesCommand, reviewCommand, taxonomyCommand } from '../src/app/cli/evidence-commands';
import { ReviewLogRepository } from '../src/app/reviews/review-log.repository';
import { dataSourceOptions } from '../src/data-source';
import { EvidenceReviewEnv } from '../src/config/env';
import { loadEnv } from '@platform/config';

const clean = { artifact_id: 'ok', answer_text: 'x', claims: [{ id: 'c', text: 'Plain.', assertiveness: 'tentative', source_ids: ['s'] }], sources: [{ id: 's', declared_tier: 'guideline' }] };
const risky = { artifact: { artifact_id: 'risky', answer_text: 'x', tenant_id: 'acme', claims: [{ id: 'c', text: 'It always works.' }] } };

function fakeIo(input: string | Record<string, string>, progress = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    read: async (path) => {
      if (typeof input === 'string') return input;
      if (path && path in input) return input[path];
      throw new Error(`ENOENT: no such file ${path}`);
    },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    progress,
  };
  return { io, out, err };
}

describe('evidence-review CLI commands', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const engine = createReviewEngine();
  const log = async () => ({ repo: new ReviewLogRepository(ds), close: async () => undefined });

  beforeAll(async () => {
    db = await createTestDatabase('evidence_cli');
    const options = dataSourceOptions(loadEnv(EvidenceReviewEnv, { DATABASE_URL: process.env.DATABASE_URL, DATABASE_NAME: db.name }));
    await migrateDatabase(options);
    ds = await new DataSource(options).initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('exits 0 for a clean review and 2 when anything was found, printing the result JSON', async () => {
    const a = fakeIo(JSON.stringify(clean));
    expect(await reviewCommand(['--dry-run'], { engine, log }, a.io)).toBe(0);
    expect(JSON.parse(a.out.join(''))).toMatchObject({ artifact_id: 'ok', verdict: 'keep', metadata: { dry_run: true } });
    const b = fakeIo(JSON.stringify(risky));
    expect(await reviewCommand(['-', '--pretty', '--dry-run'], { engine, log }, b.io)).toBe(2);
    expect(b.out.join('')).toContain('\n  "review_id"');
  });

  it('exits 1 with a JSON error for bad JSON, empty input, unreadable files, invalid requests and unknown profiles', async () => {
    for (const [input, args, code] of [
      ['{nope', [], 'invalid_json'],
      ['  ', [], 'empty_input'],
      [{}, ['missing.json'], 'unreadable_input'],
      [JSON.stringify({ artifact_id: 'x' }), [], 'validation_error'],
      [JSON.stringify(clean), ['--profile=tarot'], 'unknown_profile'],
    ] as const) {
      const f = fakeIo(input as string);
      expect(await reviewCommand([...args], { engine, log }, f.io)).toBe(1);
      expect(JSON.parse(f.err.join('')).error.code).toBe(code);
    }
  });

  it('reviews a file of JSON lines, one result per line, with a progress bar, and logs each review', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-cli-'));
    const file = join(dir, 'batch.jsonl');
    writeFileSync(file, [JSON.stringify(risky), JSON.stringify(clean), JSON.stringify({ ...risky, artifact: { ...risky.artifact, artifact_id: 'risky-2' } })].join('\n'));
    const f = fakeIo({ [file]: (await import('node:fs')).readFileSync(file, 'utf8') }, true);
    expect(await reviewCommand([file, '--profile=default'], { engine, log }, f.io)).toBe(2);
    const lines = f.out.join('').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.artifact_id)).toEqual(['risky', 'ok', 'risky-2']);
    expect(f.err.join('')).toContain('3/3');

    const listed = fakeIo('');
    expect(await logCommand(['--tenant=acme', '--limit=5'], { log }, listed.io)).toBe(0);
    const entries = JSON.parse(listed.out.join('')).entries;
    expect(entries.map((e: { artifact_id: string }) => e.artifact_id)).toEqual(['risky-2', 'risky']);
  });

  it('prints profiles and the taxonomy', () => {
    const p = fakeIo('');
    expect(profilesCommand(['--pretty'], engine, p.io)).toBe(0);
    expect(Object.keys(JSON.parse(p.out.join('')).profiles)).toContain('medical');
    const t = fakeIo('');
    expect(taxonomyCommand([], engine, t.io)).toBe(0);
    expect(JSON.parse(t.out.join('')).claim_assertiveness).toEqual(['definitive', 'likely', 'tentative']);
  });
});
