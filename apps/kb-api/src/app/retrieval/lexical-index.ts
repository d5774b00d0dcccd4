/**
 * A tenant's chunks as an in-memory inverted index, for BM25 over every chunk that holds a query
 * term (exhaustive, no prefilter) in a few milliseconds of one process's CPU. Postgres stays the
 * source of truth: the index is built from the chunks' tsv column (the same lexemes, stemmed and weighted
 * by the same text-search configurations), the term statistics it scores with are counted in it
 * for the chunks it holds (or read from the database), and the chunks it ranks are read back from
 * the database with the tenant, every filter and the tenant's change counters, which tell whether
 * the index was behind (lexical-indexes.ts, term-stats.ts, chunk-search.repository.ts).
 *
 * Postings are per (language, lexeme): a chunk is analysed by its own language, so a lexeme only
 * ever matches chunks of the configuration that produced it, as the SQL ranking's join on language
 * does. Each posting packs how often the lexeme stands in the chunk's title (weight A), heading
 * path (B) and text (C/D), so BM25F's field weights stay parameters of the query.
 */

/** One chunk as the loader reads it (lexical-index.repository.ts). */
export interface IndexedChunkRow {
  id: number;
  language: string;
  /** Its length in tokens (kb_chunks.tokens). */
  tokens: number;
  /** The chunk's tsv column in Postgres's text form: `'lexeme':1A,4 'other':2`. */
  tsv: string;
}

/** One lexeme of a tsvector with its positions counted by weight. */
export interface ParsedLexeme {
  lexeme: string;
  title: number;
  heading: number;
  text: number;
}

/**
 * Postgres's text form of a tsvector: each lexeme single-quoted (a quote doubled, a backslash
 * escaped), then optionally `:` and comma-separated positions, each maybe followed by its weight
 * letter (A, B, C; D is not written). A lexeme without positions counts once as text.
 */
export function parseTsvector(text: string): ParsedLexeme[] {
  const out: ParsedLexeme[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text.charCodeAt(i) === 32) i++;
    if (i >= n) break;
    if (text[i] !== "'") throw new Error(`tsvector: expected a quote at ${i}`);
    i++;
    let lexeme = '';
    let start = i;
    for (;;) {
      if (i >= n) throw new Error('tsvector: unterminated lexeme');
      const c = text[i];
      if (c === '\\') {
        lexeme += text.slice(start, i) + text[i + 1];
        i += 2;
        start = i;
      } else if (c === "'") {
        if (text[i + 1] === "'") {
          lexeme += text.slice(start, i) + "'";
          i += 2;
          start = i;
        } else {
          lexeme += text.slice(start, i);
          i++;
          break;
        }
      } else i++;
    }
    const entry: ParsedLexeme = { lexeme, title: 0, heading: 0, text: 0 };
    if (text[i] === ':') {
      i++;
      for (;;) {
        while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
        const w = text[i];
        if (w === 'A') {
          entry.title++;
          i++;
        } else if (w === 'B') {
          entry.heading++;
          i++;
        } else {
          if (w === 'C') i++;
          entry.text++;
        }
        if (text[i] === ',') i++;
        else break;
      }
    } else entry.text = 1;
    out.push(entry);
  }
  return out;
}

/** A question term for scoring: its lexemes under each language (its word and one-word synonyms) and its IDF. */
export interface IndexQueryTerm {
  lexemes: Array<{ language: string; lexeme: string }>;
  idf: number;
}

export interface Bm25Params {
  k1: number;
  b: number;
  titleWeight: number;
  headingWeight: number;
  avgLength: number;
}

/** A scored chunk: BM25, the IDF weight of the terms it holds and which (a bit per term, term 0 lowest). */
export interface IndexHit {
  chunkId: number;
  bm25: number;
  matched: number;
  found: number;
}

/** Counts per weight pack into one 32-bit word: title (8 bits), heading path (8), text (16); a tsvector keeps at most 256 positions a lexeme. */
const pack = (e: ParsedLexeme) => (Math.min(e.title, 255) << 24) | (Math.min(e.heading, 255) << 16) | Math.min(e.text, 65_535);

class PostingList {
  slots = new Int32Array(2);
  counts = new Uint32Array(2);
  length = 0;

  /** Answers the bytes its arrays grew by (the index keeps the total). */
  push(slot: number, counts: number): number {
    let grew = 0;
    if (this.length === this.slots.length) {
      const grow = this.length * 2;
      grew = (grow - this.length) * 8;
      const slots = new Int32Array(grow);
      slots.set(this.slots);
      const packed = new Uint32Array(grow);
      packed.set(this.counts);
      this.slots = slots;
      this.counts = packed;
    }
    this.slots[this.length] = slot;
    this.counts[this.length] = counts;
    this.length++;
    return grew;
  }

  /** Drops the postings of dead slots and renumbers the rest (compaction), shrinking its arrays when they are mostly empty. */
  keep(renumber: Int32Array): void {
    let w = 0;
    for (let r = 0; r < this.length; r++) {
      const to = renumber[this.slots[r]];
      if (to < 0) continue;
      this.slots[w] = to;
      this.counts[w] = this.counts[r];
      w++;
    }
    this.length = w;
    // Give back what the removed postings held (a list more than half empty is copied into arrays its size).
    if (this.slots.length > 2 * Math.max(2, w)) {
      this.slots = this.slots.slice(0, Math.max(2, w));
      this.counts = this.counts.slice(0, Math.max(2, w));
    }
  }
}

/** A copy of `a` with room for `size` elements. */
function grown<T extends Uint8Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** V8's cost of one posting list beyond its arrays' contents (Map entry, key string, object, two typed-array headers). */
const LIST_OVERHEAD_BYTES = 560;
/** Per chunk slot: its id, length, liveness, the id map's entry and the scoring scratch arrays. */
const SLOT_BYTES = 100;

/** The key of a lexeme's posting list, or of a word's remembered analysis, under one language. */
export const languageKey = (language: string, text: string): string => `${language}\u0000${text}`;

/** Question words whose analysis an index remembers: a few megabytes at most. */
export const MAX_ANALYSED_WORDS = 20_000;
/** A remembered analysis: the map entry, key and array (V8's overhead, roughly) plus the strings' characters. */
const analysedBytesOf = (key: string, lexemes: string[]) => 120 + 2 * key.length + lexemes.reduce((n, l) => n + 40 + 2 * l.length, 0);

/** At most 32 question terms (RetrievalService caps them): one bit each in a hit's `found`. */
export const MAX_INDEX_TERMS = 32;

export class LexicalIndex {
  private readonly postings = new Map<string, PostingList>();
  private ids: number[] = [];
  private lengths = new Float64Array(64);
  private alive = new Uint8Array(64);
  private readonly slotOf = new Map<number, number>();
  private dead = 0;
  private arrayBytes = 0;
  /** Per slot, its language's position in `languages`. */
  private languageOf = new Uint8Array(64);
  /** The languages met, each with its live chunks and their summed length (the index's own kb_chunk_totals). */
  private readonly languages: Array<{ language: string; chunks: number; tokens: number }> = [];
  /** Question words' lexemes per language (`language NUL word`), as Postgres analysed them (see lexemesOf). */
  private readonly analysed = new Map<string, string[]>();
  private analysedBytes = 0;

  /**
   * An estimate of the heap the index holds: its posting arrays as allocated, plus per posting list
   * (map entry, key, object, two typed arrays) and per chunk slot what V8 takes for them, measured
   * on the retrieval benchmark's corpus. Text with many one-off tokens (identifiers, hashes) makes
   * many short lists: the estimate follows it, where a count of chunks would not.
   */
  get bytes(): number {
    return this.arrayBytes + this.postings.size * LIST_OVERHEAD_BYTES + this.ids.length * SLOT_BYTES + this.analysedBytes;
  }

  /**
   * A question word's lexemes under `language`, as to_tsvector analysed it for an earlier question
   * of this tenant, or undefined when not remembered. Analysis is the text-search configuration's,
   * which changes only with a rewrite of the chunks (a new epoch), and a rewrite loads the tenant
   * into a new index: what an index remembers always matches the lexemes it holds.
   */
  lexemesOf(language: string, word: string): string[] | undefined {
    const key = languageKey(language, word);
    const lexemes = this.analysed.get(key);
    if (lexemes !== undefined) {
      // Most recently used last: the words forgotten first are the ones no question asked for longest.
      this.analysed.delete(key);
      this.analysed.set(key, lexemes);
    }
    return lexemes;
  }

  /** Remembers a word's lexemes under `language` (the least recently used words are forgotten past MAX_ANALYSED_WORDS). */
  rememberLexemes(language: string, word: string, lexemes: string[]): void {
    const key = languageKey(language, word);
    if (this.analysed.has(key)) return;
    if (this.analysed.size >= MAX_ANALYSED_WORDS) {
      const [oldest, its] = this.analysed.entries().next().value as [string, string[]];
      this.analysed.delete(oldest);
      this.analysedBytes -= analysedBytesOf(oldest, its);
    }
    this.analysed.set(key, lexemes);
    this.analysedBytes += analysedBytesOf(key, lexemes);
  }

  /** How many postings a query over these terms walks (the scoring cost, known before scoring). */
  postingsOf(terms: IndexQueryTerm[]): number {
    let n = 0;
    for (const term of terms) for (const { list } of this.listsOf(term)) n += list.length;
    return n;
  }

  /** Live chunks held. */
  get size(): number {
    return this.slotOf.size;
  }

  /** The ids of the live chunks held. */
  chunkIds(): IterableIterator<number> {
    return this.slotOf.keys();
  }

  /**
   * The languages of the live chunks held, each with its chunks and their summed length in tokens:
   * what kb_chunk_totals holds for the tenant, for the chunks this index reflects.
   */
  totals(): Array<{ language: string; chunks: number; tokens: number }> {
    return this.languages.filter((l) => l.chunks > 0).map((l) => ({ ...l }));
  }

  /**
   * Live chunks of `language` holding `lexeme`: its document frequency, as kb_term_stats counts it
   * for the chunks this index reflects. A removed chunk's postings stay until the next compaction,
   * so while there are any, the list is walked to count only the live ones.
   */
  documentFrequency(language: string, lexeme: string): number {
    const list = this.postings.get(languageKey(language, lexeme));
    if (!list) return 0;
    if (this.dead === 0) return list.length;
    let n = 0;
    for (let j = 0; j < list.length; j++) n += this.alive[list.slots[j]];
    return n;
  }

  has(chunkId: number): boolean {
    return this.slotOf.has(chunkId);
  }

  add(row: IndexedChunkRow): void {
    if (this.slotOf.has(row.id)) return;
    const slot = this.ids.length;
    if (slot === this.alive.length) {
      this.alive = grown(this.alive, slot * 2);
      this.lengths = grown(this.lengths, slot * 2);
      this.languageOf = grown(this.languageOf, slot * 2);
    }
    this.ids.push(row.id);
    this.lengths[slot] = row.tokens;
    this.alive[slot] = 1;
    this.slotOf.set(row.id, slot);
    let language = this.languages.findIndex((l) => l.language === row.language);
    if (language < 0) language = this.languages.push({ language: row.language, chunks: 0, tokens: 0 }) - 1;
    if (language > 255) throw new Error('at most 256 languages');
    this.languageOf[slot] = language;
    this.languages[language].chunks++;
    this.languages[language].tokens += row.tokens;
    for (const entry of parseTsvector(row.tsv)) {
      const key = languageKey(row.language, entry.lexeme);
      let list = this.postings.get(key);
      if (!list) {
        this.postings.set(key, (list = new PostingList()));
        this.arrayBytes += 16;
      }
      this.arrayBytes += list.push(slot, pack(entry));
    }
  }

  /** Forgets a chunk (deleted, or its document soft-deleted); its postings go at the next compaction. */
  remove(chunkId: number): void {
    const slot = this.slotOf.get(chunkId);
    if (slot === undefined) return;
    this.slotOf.delete(chunkId);
    this.alive[slot] = 0;
    const totals = this.languages[this.languageOf[slot]];
    totals.chunks--;
    totals.tokens -= this.lengths[slot];
    this.dead++;
    if (this.dead > 1000 && this.dead > this.ids.length / 4) this.compact();
  }

  private compact(): void {
    const renumber = new Int32Array(this.ids.length).fill(-1);
    const ids: number[] = [];
    const lengths = new Float64Array(this.lengths.length);
    const languageOf = new Uint8Array(this.languageOf.length);
    for (let s = 0; s < this.ids.length; s++) {
      if (!this.alive[s]) continue;
      renumber[s] = ids.length;
      this.slotOf.set(this.ids[s], ids.length);
      lengths[ids.length] = this.lengths[s];
      languageOf[ids.length] = this.languageOf[s];
      ids.push(this.ids[s]);
    }
    this.arrayBytes = 0;
    for (const [key, list] of this.postings) {
      list.keep(renumber);
      if (list.length === 0) this.postings.delete(key);
      else this.arrayBytes += list.slots.length * 8;
    }
    this.ids = ids;
    this.lengths = lengths;
    this.languageOf = languageOf;
    this.alive = new Uint8Array(this.alive.length);
    this.alive.fill(1, 0, ids.length);
    this.dead = 0;
  }

  /**
   * Every live chunk holding a query term, scored as the SQL ranking scores a candidate: per term,
   * its lexemes' weighted frequencies summed (a title occurrence counts `titleWeight` times, a
   * heading-path one `headingWeight` times), then BM25 with the chunk's stored length; `matched`
   * sums the IDF of the terms found. Answers the best `limit` (all of them when `limit` is
   * Infinity), best first: BM25, then matched, then the lower chunk id, as the SQL orders.
   */
  score(terms: IndexQueryTerm[], p: Bm25Params, limit: number): { hits: IndexHit[]; scored: number } {
    if (terms.length > MAX_INDEX_TERMS) throw new Error(`at most ${MAX_INDEX_TERMS} terms`);
    const { bm25, matched, found, tf, stamp, termSlots, touched } = this.scratchFor(this.ids.length);
    const { k1, b, titleWeight, headingWeight } = p;
    const avg = Math.max(1, p.avgLength);
    const alive = this.alive;
    const lengths = this.lengths;
    let nTouched = 0;
    // BM25's length normalisation as one multiply-add per chunk: k1 · (1 − b + b · length / avg).
    const normBase = k1 * (1 - b);
    const normPerToken = (k1 * b) / avg;
    // A posting's frequency with the field weights applied, and one term's BM25 share added to a chunk (small enough
    // for V8 to inline into both loops below).
    const weighted = (c: number) => (c >>> 24) * titleWeight + ((c >>> 16) & 0xff) * headingWeight + (c & 0xffff);
    const credit = (s: number, f: number, idf: number, bit: number) => {
      if (found[s] === 0) touched[nTouched++] = s;
      bm25[s] += (idf * f * (k1 + 1)) / (f + normBase + normPerToken * lengths[s]);
      matched[s] += idf;
      found[s] |= bit;
    };
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i];
      const bit = 1 << i;
      const idf = term.idf;
      const lists = this.listsOf(term);
      // A chunk has one language, so lists of different languages never share a chunk: each can be scored on its own,
      // in one pass. Only a term with several lexemes in one language (a synonym) sums their frequencies first.
      const languages = new Set(lists.map((l) => l.language));
      if (languages.size === lists.length) {
        for (const { list } of lists) {
          const { slots: ps, counts, length } = list;
          for (let j = 0; j < length; j++) {
            const s = ps[j];
            if (alive[s] !== 0) credit(s, weighted(counts[j]), idf, bit);
          }
        }
        continue;
      }
      let nTerm = 0;
      const mark = ++this.stampOf;
      for (const { list } of lists) {
        const { slots: ps, counts, length } = list;
        for (let j = 0; j < length; j++) {
          const s = ps[j];
          if (alive[s] === 0) continue;
          const f = weighted(counts[j]);
          if (stamp[s] !== mark) {
            stamp[s] = mark;
            tf[s] = f;
            termSlots[nTerm++] = s;
          } else tf[s] += f;
        }
      }
      for (let j = 0; j < nTerm; j++) {
        const s = termSlots[j];
        credit(s, tf[s], idf, bit);
      }
    }
    const best = this.bestOf(touched, nTouched, limit);
    const hits = best.map((s) => ({ chunkId: this.ids[s], bm25: bm25[s], matched: matched[s], found: found[s] >>> 0 }));
    // The scratch arrays serve the next query (scoring is synchronous, so no two queries share them at once).
    for (let j = 0; j < nTouched; j++) {
      const s = touched[j];
      bm25[s] = 0;
      matched[s] = 0;
      found[s] = 0;
    }
    return { hits, scored: nTouched };
  }

  /** The posting lists of a term's lexemes, each once. */
  private listsOf(term: IndexQueryTerm): Array<{ language: string; list: PostingList }> {
    const out: Array<{ language: string; list: PostingList }> = [];
    for (const { language, lexeme } of term.lexemes) {
      const list = this.postings.get(languageKey(language, lexeme));
      if (list && !out.some((o) => o.list === list)) out.push({ language, list });
    }
    return out;
  }

  /**
   * The best `limit` of the first `n` slots of `touched`, best first. The limit-th best BM25 is found by selection over a copy
   * of the scores; only the slots at or above it are sorted (ties at the threshold are all kept until the sort decides).
   */
  private bestOf(touched: Int32Array, n: number, limit: number): number[] {
    const { bm25, matched, values } = this.scratch!;
    let chosen: number[];
    if (limit >= n) chosen = Array.from(touched.subarray(0, n));
    else {
      for (let j = 0; j < n; j++) values[j] = bm25[touched[j]];
      const threshold = kthLargest(values, n, limit);
      chosen = [];
      for (let j = 0; j < n; j++) if (bm25[touched[j]] >= threshold) chosen.push(touched[j]);
    }
    const ids = this.ids;
    chosen.sort((x, y) => bm25[y] - bm25[x] || matched[y] - matched[x] || ids[x] - ids[y]);
    return chosen.length > limit ? chosen.slice(0, limit) : chosen;
  }

  /** Per-slot accumulators, kept zeroed between queries: allocating them per query would zero megabytes each time. */
  private scratch?: {
    bm25: Float64Array;
    matched: Float64Array;
    found: Uint32Array;
    tf: Float64Array;
    stamp: Uint32Array;
    termSlots: Int32Array;
    touched: Int32Array;
    values: Float64Array;
  };
  private stampOf = 0;

  private scratchFor(slots: number) {
    if (!this.scratch || this.scratch.bm25.length < slots) {
      const size = Math.max(1024, Math.ceil(slots * 1.25));
      this.scratch = {
        bm25: new Float64Array(size),
        matched: new Float64Array(size),
        found: new Uint32Array(size),
        tf: new Float64Array(size),
        stamp: new Uint32Array(size),
        termSlots: new Int32Array(size),
        touched: new Int32Array(size),
        values: new Float64Array(size),
      };
      this.stampOf = 0;
    }
    if (this.stampOf > 0xfffffff0) {
      this.scratch.stamp.fill(0);
      this.stampOf = 0;
    }
    return this.scratch;
  }
}

/** The k-th largest of the first `n` values (1-based k ≤ n), by quickselect; reorders `values`. */
function kthLargest(values: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] > pivot) i++;
      while (values[j] < pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target];
  }
  return values[target];
}
