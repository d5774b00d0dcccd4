import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `kb_chunks` is the one tenant table without a row-security policy (docs/security.md, "Defence in
 * depth": the full-text match would lose its index under one). Its backstop is this check instead:
 * every SQL text in kb-api that reads or writes `kb_chunks` names the tenant (`tenant_id`) or is
 * tied to a row of `kb_documents`, which the policy confines. A statement that is neither must be
 * listed below with the reason it cannot reach another tenant's chunks.
 */
const SRC = path.resolve(__dirname, '../..');

/** file (relative to src/) → statements (a distinctive fragment of each) that are scoped another way. */
const SCOPED_OTHERWISE: Record<string, Array<{ fragment: string; reason: string }>> = {
  'app/admin-knowledge/inventory/inventory.repository.ts': [
    { fragment: 'SELECT 1 FROM kb_chunks c WHERE c.document_id = d.id', reason: 'a correlated subquery of a kb_documents row d, which the policy confines' },
  ],
  'app/ingest/documents.repository.ts': [{ fragment: 'DELETE FROM kb_chunks WHERE document_id = $1', reason: 'the document id was read in the same transaction, scoped by tenant' }],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'migrations' ? [] : sourceFiles(full);
    return name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(name) ? [full] : [];
  });
}

/** Every string or template literal of a file that mentions kb_chunks. */
function chunkStatements(source: string): string[] {
  return [...source.matchAll(/`[^`]*`|'[^'\n]*'/g)].map((m) => m[0]).filter((s) => /\bkb_chunks\b/.test(s));
}

describe('kb_chunks statements are tenant-scoped (its backstop in place of row security)', () => {
  const files = sourceFiles(SRC);
  const statements = files.flatMap((file) => chunkStatements(readFileSync(file, 'utf8')).map((sql) => ({ file: path.relative(SRC, file), sql })));

  it('finds the statements (the scan reads what it should)', () => {
    expect(statements.length).toBeGreaterThan(10);
  });

  it('names the tenant or ties each chunk to a policed document, unless listed with a reason', () => {
    const unscoped = statements.filter(({ file, sql }) => {
      if (/\btenant_id\b/.test(sql) || /\bkb_documents\b/.test(sql)) return false;
      return !(SCOPED_OTHERWISE[file] ?? []).some((s) => sql.includes(s.fragment));
    });
    expect(unscoped).toEqual([]);
  });

  it('lists no exception that no longer exists', () => {
    for (const [file, listed] of Object.entries(SCOPED_OTHERWISE)) {
      const inFile = statements.filter((s) => s.file === file).map((s) => s.sql);
      for (const { fragment } of listed) expect({ file, fragment, found: inFile.some((sql) => sql.includes(fragment)) }).toEqual({ file, fragment, found: true });
    }
  });
});
