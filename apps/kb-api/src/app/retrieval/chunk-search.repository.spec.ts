import { RepeatedStatements } from '@platform/database';
import type { DataSource } from 'typeorm';
import { ChunkSearchRepository } from './chunk-search.repository';

/**
 * The read-back of chunks ranked in memory runs on every retrieve and chat: it must be a statement
 * the pool can name (prepare once per connection), so one text per set of filters and no `*`
 * columns (repeated-statements.ts leaves those unnamed).
 */
describe('ChunkSearchRepository.inOrder statement', () => {
  const textsOf = async (calls: Array<Parameters<ChunkSearchRepository['inOrder']>>) => {
    const texts: string[] = [];
    const db = { query: async (sql: string) => (texts.push(sql), []) } as unknown as DataSource;
    const repository = new ChunkSearchRepository(db);
    for (const args of calls) await repository.inOrder(...args);
    return texts;
  };
  const options = { excludeFlagged: true, perDocument: 3, limit: 10 };

  it('is one nameable text for every question without filters, whatever the ids, top_k and cap', async () => {
    const texts = await textsOf([
      ['default', [1, 2, 3], {}, options],
      ['acme', [9, 8], {}, { ...options, limit: 100 }],
      ['default', [4], {}, { ...options, limit: 23, perDocument: 1 }],
    ]);
    expect(new Set(texts).size).toBe(1);
    const statements = new RepeatedStatements(1);
    expect(statements.nameFor(texts[0])).toBeDefined();
  });

  it('is nameable with filters too, one text per set of filters', async () => {
    const texts = await textsOf([
      ['default', [1], { project_keys: ['a'] }, options],
      ['default', [2], { project_keys: ['b', 'c'] }, options],
      ['default', [3], { project_keys: ['a'], source_types: ['markdown'] }, options],
    ]);
    expect(texts[0]).toBe(texts[1]);
    expect(texts[2]).not.toBe(texts[0]);
    const statements = new RepeatedStatements(1);
    for (const text of texts) expect(statements.nameFor(text)).toBeDefined();
  });
});
