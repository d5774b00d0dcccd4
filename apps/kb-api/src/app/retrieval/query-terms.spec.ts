import { atLeastTsQuery, quoteLexeme } from './query-terms';

/** Evaluates a query of quoted lexemes, `&`, `|` and parentheses against the lexemes a chunk holds. */
function holds(query: string, present: Set<string>): boolean {
  const js = query
    .replace(/'([^']*)'/g, (_, w: string) => String(present.has(w)))
    .replace(/&/g, '&&')
    .replace(/\|/g, '||');
  if (!/^[truefals&|() ]+$/.test(js)) throw new Error(`unexpected query ${query}`);
  return new Function(`return ${js};`)() as boolean;
}

describe('atLeastTsQuery', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const operands = words.map(quoteLexeme);

  it('matches exactly the chunks holding at least k of the operands, for every k and every subset', () => {
    for (let k = 1; k <= words.length; k++) {
      const query = atLeastTsQuery(k, operands);
      for (let mask = 0; mask < 1 << words.length; mask++) {
        const present = new Set(words.filter((_, i) => mask & (1 << i)));
        expect([k, [...present].join(','), holds(query, present)]).toEqual([
          k,
          [...present].join(','),
          present.size >= k,
        ]);
      }
    }
  });

  it('keeps a synonym group as one operand', () => {
    const query = atLeastTsQuery(2, ["('pg' | 'postgres')", "'replication'", "'slot'"]);
    expect(query).toBe(
      "((('pg' | 'postgres') & ('replication' | 'slot')) | ('replication' & 'slot'))",
    );
  });

  it('rejects a k outside 1..operands', () => {
    expect(() => atLeastTsQuery(0, operands)).toThrow();
    expect(() => atLeastTsQuery(6, operands)).toThrow();
  });
});
