import { Bm25Params, IndexedChunkRow, IndexHit, IndexQueryTerm, LexicalIndex, MAX_ANALYSED_WORDS, parseTsvector } from './lexical-index';

describe('parseTsvector', () => {
  it('reads lexemes, positions and weights as Postgres writes them', () => {
    expect(parseTsvector(`'cat':6 'titl':1A,3B,7 'whisker':8C`)).toEqual([
      { lexeme: 'cat', title: 0, heading: 0, text: 1 },
      { lexeme: 'titl', title: 1, heading: 1, text: 1 },
      { lexeme: 'whisker', title: 0, heading: 0, text: 1 },
    ]);
  });

  it('unescapes doubled quotes and backslashes, and counts a lexeme without positions once', () => {
    expect(parseTsvector(`'a''b':1 'c\\\\d':2,3B 'x y':4 'bare'`)).toEqual([
      { lexeme: "a'b", title: 0, heading: 0, text: 1 },
      { lexeme: 'c\\d', title: 0, heading: 1, text: 1 },
      { lexeme: 'x y', title: 0, heading: 0, text: 1 },
      { lexeme: 'bare', title: 0, heading: 0, text: 1 },
    ]);
  });

  it('answers nothing for an empty vector and refuses a malformed one', () => {
    expect(parseTsvector('')).toEqual([]);
    expect(() => parseTsvector(`cat':1`)).toThrow(/quote/);
    expect(() => parseTsvector(`'cat`)).toThrow(/unterminated/);
  });
});

/** A small deterministic corpus: lexemes from a fixed alphabet, a few in titles and headings, two languages. */
function corpus(n: number): IndexedChunkRow[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  return Array.from({ length: n }, (_, i) => {
    const lexemes = new Map<string, string[]>();
    const count = 3 + Math.floor(rnd() * 12);
    for (let k = 0; k < count; k++) {
      // Zipf-like: low word numbers are common.
      const w = words[Math.floor(words.length * rnd() * rnd())];
      const weight = rnd() < 0.1 ? 'A' : rnd() < 0.15 ? 'B' : '';
      lexemes.set(w, [...(lexemes.get(w) ?? []), `${k + 1}${weight}`]);
    }
    const tsv = [...lexemes].map(([w, positions]) => `'${w}':${positions.join(',')}`).join(' ');
    const tokens = [...lexemes.values()].reduce((s, p) => s + p.length, 0);
    return { id: 1000 + i * 3, language: i % 5 === 0 ? 'german' : 'english', tokens, tsv };
  });
}

/** BM25 as the SQL ranking computes it, chunk by chunk: the reference the index must agree with. */
function reference(rows: IndexedChunkRow[], terms: IndexQueryTerm[], p: Bm25Params) {
  return rows
    .map((row) => {
      const parsed = new Map(parseTsvector(row.tsv).map((e) => [e.lexeme, e]));
      let bm25 = 0;
      let matched = 0;
      let found = 0;
      terms.forEach((term, i) => {
        let tf = 0;
        for (const l of term.lexemes) {
          const e = l.language === row.language ? parsed.get(l.lexeme) : undefined;
          if (e) tf += e.title * p.titleWeight + e.heading * p.headingWeight + e.text;
        }
        if (tf === 0) return;
        bm25 += (term.idf * tf * (p.k1 + 1)) / (tf + p.k1 * (1 - p.b + (p.b * row.tokens) / Math.max(1, p.avgLength)));
        matched += term.idf;
        found |= 1 << i;
      });
      return { chunkId: row.id, bm25, matched, found };
    })
    .filter((h) => h.found !== 0)
    .sort((x, y) => y.bm25 - x.bm25 || y.matched - x.matched || x.chunkId - y.chunkId);
}

const params: Bm25Params = { k1: 1.8, b: 0.75, titleWeight: 2, headingWeight: 1.5, avgLength: 8 };
const term = (idf: number, ...lexemes: Array<[string, string]>): IndexQueryTerm => ({ idf, lexemes: lexemes.map(([language, lexeme]) => ({ language, lexeme })) });

describe('LexicalIndex', () => {
  const rows = corpus(3000);
  const queries: IndexQueryTerm[][] = [
    [term(2.5, ['english', 'w30']), term(0.4, ['english', 'w1'])],
    [term(1.2, ['english', 'w5'], ['german', 'w5']), term(3, ['english', 'w33'], ['english', 'w34']), term(0.1, ['english', 'w0'])],
    [term(4, ['german', 'w12']), term(1, ['english', 'nothing'])],
    Array.from({ length: 32 }, (_, i) => term(1 + i / 10, ['english', `w${i}`])),
  ];

  it('scores every chunk holding a term as the SQL ranking does, best first, for the top k and for all', () => {
    const index = new LexicalIndex();
    rows.forEach((r) => index.add(r));
    for (const q of queries) {
      const want = reference(rows, q, params);
      const all = index.score(q, params, Infinity);
      expect(all.scored).toBe(want.length);
      expect(all.hits.map((h) => h.chunkId)).toEqual(want.map((h) => h.chunkId));
      all.hits.forEach((h, i) => {
        expect(h.bm25).toBeCloseTo(want[i].bm25, 9);
        expect(h.matched).toBeCloseTo(want[i].matched, 9);
        expect(h.found).toBe(want[i].found >>> 0);
      });
      for (const k of [1, 10, 57]) expect(index.score(q, params, k).hits.map((h) => h.chunkId)).toEqual(want.slice(0, k).map((h) => h.chunkId));
    }
  });

  it('leaves its scratch state clean: the same query twice gives the same answer', () => {
    const index = new LexicalIndex();
    rows.forEach((r) => index.add(r));
    const first = index.score(queries[1], params, 25);
    index.score(queries[0], params, 25);
    expect(index.score(queries[1], params, 25)).toEqual(first);
  });

  it('forgets removed chunks, before and after compaction, and takes new ones', () => {
    const index = new LexicalIndex();
    rows.forEach((r) => index.add(r));
    const removed = new Set(rows.filter((_, i) => i % 3 !== 0).map((r) => r.id));
    for (const id of removed) index.remove(id);
    const kept = rows.filter((r) => !removed.has(r.id));
    expect(index.size).toBe(kept.length);
    for (const q of queries) expect(index.score(q, params, Infinity).hits.map((h) => h.chunkId)).toEqual(reference(kept, q, params).map((h) => h.chunkId));
    // Compaction ran (two thirds removed): the estimate follows the arrays it keeps.
    const fresh = new LexicalIndex();
    kept.forEach((r) => fresh.add(r));
    expect(index.bytes).toBeLessThan(fresh.bytes * 2);
    const extra = { id: 99_999, language: 'english', tokens: 2, tsv: `'w30':1A 'w1':2` };
    index.add(extra);
    index.add(extra);
    expect(index.size).toBe(kept.length + 1);
    expect(index.score(queries[0], params, 1).hits[0].chunkId).toBe(99_999);
    expect(index.has(99_999) && !index.has(rows[1].id)).toBe(true);
  });

  it('skips chunks no remaining term could lift into the best k (MaxScore) and answers exactly the best k', () => {
    const index = new LexicalIndex();
    rows.forEach((r) => index.add(r));
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Random questions: rare and common words, synonyms in one language and across both, weights unlike the df.
    const randomQuery = () =>
      Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => {
        const w = () => `w${Math.floor(40 * rnd())}`;
        const lexemes: Array<[string, string]> = [['english', w()]];
        if (rnd() < 0.2) lexemes.push(['english', w()]);
        if (rnd() < 0.3) lexemes.push(['german', w()]);
        return term(0.05 + 4 * rnd(), ...lexemes);
      });
    let pruned = 0;
    for (let q = 0; q < 300; q++) {
      const query = randomQuery();
      const p = { ...params, avgLength: 4 + 8 * rnd() };
      const all = index.score(query, p, Infinity);
      for (const k of [1, 5, 32, 100]) {
        const countUpTo = Math.max(k + 1, 50);
        const top = index.score(query, p, k, countUpTo);
        // Terms are summed in another order when pruning: equal to the last bits that rounding can change.
        const shown = (hits: IndexHit[]) => hits.map((h) => [h.chunkId, h.bm25.toFixed(9), h.matched.toFixed(9), h.found]);
        expect(shown(top.hits)).toEqual(shown(all.hits.slice(0, k)));
        // Counted exactly up to countUpTo; past it, at least countUpTo.
        if (all.scored <= countUpTo) expect(top.scored).toBe(all.scored);
        else expect(top.scored).toBeGreaterThanOrEqual(countUpTo);
        if (top.scored < all.scored) pruned++;
      }
    }
    // The pruning did happen (otherwise the test proves nothing about it).
    expect(pruned).toBeGreaterThan(100);
  });

  it('bounds a term by its list as it is now: a chunk added after a query, a removal, new parameters', () => {
    // Long chunks: each term adds little to them, so after the rare term the common one's bound is below the best score.
    const long = (id: number, tsv: string): IndexedChunkRow => ({ id, language: 'english', tokens: 100, tsv });
    const index = new LexicalIndex();
    [1, 2, 3].forEach((id) => index.add(long(id, `'rare':1`)));
    [4, 5, 6, 7, 8].forEach((id) => index.add(long(id, `'common':1`)));
    const query = [term(3, ['english', 'rare']), term(1, ['english', 'common'])];
    const best = (p: Bm25Params) => index.score(query, p, 1, 2);
    const exhaustive = (p: Bm25Params) => index.score(query, p, Infinity).hits[0].chunkId;
    expect(best(params).hits[0].chunkId).toBe(exhaustive(params));
    // Pruned: the common word's chunks were never collected.
    expect(best(params).scored).toBe(3);
    // A short chunk with the common word forty times now beats every rare-word chunk: a bound remembered from before
    // would skip it.
    index.add({ id: 9, language: 'english', tokens: 1, tsv: `'common':${Array.from({ length: 40 }, (_, i) => `${i + 1}A`).join(',')}` });
    expect(exhaustive(params)).toBe(9);
    expect(best(params).hits[0].chunkId).toBe(9);
    index.remove(9);
    expect(best(params).hits[0].chunkId).toBe(exhaustive(params));
    // Other parameters give other bounds: a short average makes the long chunks' shares smaller still, a long one larger.
    for (const p of [{ ...params, avgLength: 1 }, { ...params, avgLength: 1000, titleWeight: 5 }, params]) {
      const top = index.score(query, p, 2, 3);
      expect(top.hits.map((h) => h.chunkId)).toEqual(index.score(query, p, Infinity).hits.slice(0, 2).map((h) => h.chunkId));
    }
  });

  it('scores every chunk when a term weighs less than nothing (partial scores then bound nothing)', () => {
    const index = new LexicalIndex();
    index.add({ id: 1, language: 'english', tokens: 1, tsv: `'a':1,2,3,4,5 'b':6` });
    index.add({ id: 2, language: 'english', tokens: 1, tsv: `'a':1,2,3` });
    index.add({ id: 3, language: 'english', tokens: 1, tsv: `'b':1` });
    const query = [term(1, ['english', 'a']), term(-1, ['english', 'b'])];
    expect(index.score(query, params, 1, 2).hits.map((h) => h.chunkId)).toEqual([2]);
    expect(index.score(query, params, 1, 2).scored).toBe(3);
  });

  it('refuses more terms than a hit can record', () => {
    expect(() => new LexicalIndex().score(Array.from({ length: 33 }, () => term(1, ['english', 'x'])), params, 10)).toThrow(/at most 32/);
  });

  it("counts each language's live chunks and lengths and each lexeme's live chunks, through removals and compaction", () => {
    const index = new LexicalIndex();
    index.add({ id: 1, language: 'english', tokens: 4, tsv: "'backup':1,3 'night':2" });
    index.add({ id: 2, language: 'english', tokens: 2, tsv: "'backup':1" });
    index.add({ id: 3, language: 'german', tokens: 5, tsv: "'sicher':1" });
    expect(index.totals()).toEqual([
      { language: 'english', chunks: 2, tokens: 6 },
      { language: 'german', chunks: 1, tokens: 5 },
    ]);
    expect([index.documentFrequency('english', 'backup'), index.documentFrequency('german', 'backup')]).toEqual([2, 0]);
    index.remove(2);
    index.remove(3);
    expect(index.totals()).toEqual([{ language: 'english', chunks: 1, tokens: 4 }]);
    expect(index.documentFrequency('english', 'backup')).toBe(1);
    for (let id = 10; id < 3_010; id++) index.add({ id, language: 'english', tokens: 1, tsv: "'filler':1" });
    for (let id = 10; id < 3_010; id++) index.remove(id);
    expect(index.totals()).toEqual([{ language: 'english', chunks: 1, tokens: 4 }]);
    expect([index.documentFrequency('english', 'backup'), index.documentFrequency('english', 'filler')]).toEqual([1, 0]);
  });

  it('remembers word analyses, forgetting the least recently used past its limit, and counts them in its size', () => {
    const index = new LexicalIndex();
    const empty = index.bytes;
    for (let i = 0; i < MAX_ANALYSED_WORDS; i++) index.rememberLexemes('english', `w${i}`, [`w${i}`]);
    expect(index.bytes).toBeGreaterThan(empty + MAX_ANALYSED_WORDS * 100);
    expect(index.lexemesOf('english', 'w0')).toEqual(['w0']);
    index.rememberLexemes('english', 'newest', []);
    expect(index.lexemesOf('english', 'w0')).toEqual(['w0']);
    expect(index.lexemesOf('english', 'w1')).toBeUndefined();
    expect(index.lexemesOf('english', 'newest')).toEqual([]);
    expect(index.lexemesOf('german', 'w0')).toBeUndefined();
  });

  it('keeps the words questions keep asking for while a stream of new words passes, in bounded memory', () => {
    const index = new LexicalIndex();
    for (let i = 0; i < MAX_ANALYSED_WORDS; i++) index.rememberLexemes('english', `w${i}`, [`w${i}`]);
    const full = index.bytes;
    const hot = ['w5', 'w7000', 'w19999'];
    for (let i = 0; i < 3 * MAX_ANALYSED_WORDS; i++) {
      if (i % 100 === 0) for (const w of hot) expect(index.lexemesOf('english', w)).toEqual([w]);
      index.rememberLexemes('english', `new${i}`, [`new${i}`]);
    }
    for (const w of hot) expect(index.lexemesOf('english', w)).toEqual([w]);
    // Words asked for once and never again are gone: the oldest new ones and every cold old one.
    expect(index.lexemesOf('english', 'w6')).toBeUndefined();
    expect(index.lexemesOf('english', 'new0')).toBeUndefined();
    expect(index.lexemesOf('english', `new${3 * MAX_ANALYSED_WORDS - 1}`)).toEqual([`new${3 * MAX_ANALYSED_WORDS - 1}`]);
    // Same number of words, a little longer each: the size stays within a tenth of what it was when full.
    expect(index.bytes).toBeLessThan(full * 1.1);
  });
});
