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

/** A posting's frequency with the field weights applied: title and heading-path occurrences count `titleWeight` and `headingWeight` times. */
const weightedOf = (c: number, titleWeight: number, headingWeight: number) => (c >>> 24) * titleWeight + ((c >>> 16) & 0xff) * headingWeight + (c & 0xffff);

/** BM25's length normalisation and field weights as one query applies them; `epoch` changes whenever they do. */
interface Saturation {
  epoch: number;
  normBase: number;
  normPerToken: number;
  titleWeight: number;
  headingWeight: number;
}

/** A lexeme's chunks in ascending slot order (slots are handed out in order and compaction keeps it), with packed counts. */
class PostingList {
  slots = new Int32Array(2);
  counts = new Uint32Array(2);
  length = 0;
  /** The saturation parameters' epoch `bound` was computed under (-1: not computed since the list last changed). */
  private boundEpoch = -1;
  private bound = 0;

  /** Answers the bytes its arrays grew by (the index keeps the total). */
  push(slot: number, counts: number): number {
    this.boundEpoch = -1;
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

  /**
   * The largest saturation f / (f + normBase + normPerToken · length) over its postings (f weighted by field): a term's
   * BM25 share in any chunk of this list is at most idf · (k1 + 1) times it. Remembered until the list or the parameters
   * change, so in a tenant that is not being written each list is walked for it once.
   */
  saturationBound(lengths: Float64Array, s: Saturation): number {
    if (this.boundEpoch === s.epoch) return this.bound;
    let bound = 0;
    const { slots, counts, length } = this;
    const { normBase, normPerToken, titleWeight, headingWeight } = s;
    for (let j = 0; j < length; j++) {
      const f = weightedOf(counts[j], titleWeight, headingWeight);
      const r = f / (f + normBase + normPerToken * lengths[slots[j]]);
      if (r > bound) bound = r;
    }
    this.bound = bound;
    this.boundEpoch = s.epoch;
    return bound;
  }

  /** Drops the postings of dead slots and renumbers the rest (compaction), shrinking its arrays when they are mostly empty. */
  keep(renumber: Int32Array): void {
    this.boundEpoch = -1;
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
  private readonly analysed = new Map<string, { lexemes: string[]; asked: boolean }>();
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
    const remembered = this.analysed.get(languageKey(language, word));
    if (remembered === undefined) return undefined;
    // Marked, not moved: moving the entry to the back of the map on every hit made the map rehash under load.
    remembered.asked = true;
    return remembered.lexemes;
  }

  /**
   * Remembers a word's lexemes under `language`. Past MAX_ANALYSED_WORDS the oldest words go first, except that a word
   * asked for since it last reached the front gets a second chance at the back (the CLOCK approximation of least
   * recently used).
   */
  rememberLexemes(language: string, word: string, lexemes: string[]): void {
    const key = languageKey(language, word);
    if (this.analysed.has(key)) return;
    while (this.analysed.size >= MAX_ANALYSED_WORDS) {
      const [oldest, its] = this.analysed.entries().next().value as [string, { lexemes: string[]; asked: boolean }];
      this.analysed.delete(oldest);
      if (its.asked) {
        its.asked = false;
        this.analysed.set(oldest, its);
      } else this.analysedBytes -= analysedBytesOf(oldest, its.lexemes);
    }
    this.analysed.set(key, { lexemes, asked: false });
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
   *
   * `scored` counts the chunks holding a query term. With `countUpTo` (finite, and a finite
   * `limit`) it is exact only up to that number: past it, the scoring may stop looking for chunks
   * no remaining term could lift into the best `limit` (MaxScore, below), and `scored` is then a
   * number of at least `countUpTo`. The best `limit` are the same either way.
   */
  score(terms: IndexQueryTerm[], p: Bm25Params, limit: number, countUpTo = Infinity): { hits: IndexHit[]; scored: number } {
    if (terms.length > MAX_INDEX_TERMS) throw new Error(`at most ${MAX_INDEX_TERMS} terms`);
    const { bm25, matched, found, tf, stamp, termSlots, touched } = this.scratchFor(this.ids.length);
    // A chunk's `matched` is summed from its `found` bits for the chunks answered only (one array fewer per posting).
    const idfs = terms.map((t) => t.idf);
    const { k1, b, titleWeight, headingWeight } = p;
    const avg = Math.max(1, p.avgLength);
    const alive = this.alive;
    const lengths = this.lengths;
    let nTouched = 0;
    // BM25's length normalisation as one multiply-add per chunk: k1 · (1 − b + b · length / avg).
    const normBase = k1 * (1 - b);
    const normPerToken = (k1 * b) / avg;
    // One term's BM25 share added to a chunk (small enough for V8 to inline into the loops below).
    const credit = (s: number, f: number, idf: number, bit: number) => {
      if (found[s] === 0) touched[nTouched++] = s;
      bm25[s] += (idf * f * (k1 + 1)) / (f + normBase + normPerToken * lengths[s]);
      found[s] |= bit;
    };
    const plans = terms.map((term, i) => {
      const lists = this.listsOf(term);
      // A chunk has one language, so lists of different languages never share a chunk. Only a term with several lexemes in
      // one language (a synonym) has chunks whose frequency sums over lists.
      return { bit: 1 << i, idf: term.idf, lists, disjoint: new Set(lists.map((l) => l.language)).size === lists.length, bound: 0 };
    });
    // MaxScore: terms go in order of the most they can add to a chunk. Once the terms left could not together lift a chunk
    // no earlier term found above the limit-th best score so far (which only grows), chunks are no longer collected: the
    // remaining terms are looked up for the candidates alone, and a candidate leaves as soon as it can no longer reach
    // the limit-th best. Scores are the same sums, so the best `limit` are exactly those of scoring every chunk.
    // A term's share is never negative while its IDF is not (BM25's IDF here never is): only then do partial scores bound the
    // final ones from below.
    const pruning = Number.isFinite(limit) && Number.isFinite(countUpTo) && terms.every((t) => t.idf >= 0);
    const remaining: number[] = [];
    if (pruning) {
      const saturation = this.saturationFor(normBase, normPerToken, titleWeight, headingWeight);
      for (const plan of plans) {
        const bounds = plan.lists.map(({ list }) => list.saturationBound(lengths, saturation));
        // x / (x + K) is concave and 0 at 0, so the saturation of a sum is at most the sum of saturations.
        const most = plan.disjoint ? Math.max(0, ...bounds) : Math.min(1, bounds.reduce((sum, r) => sum + r, 0));
        plan.bound = plan.idf * (k1 + 1) * most;
      }
      plans.sort((x, y) => y.bound - x.bound || x.bit - y.bit);
      // What the terms from position i on can add at most, with a margin for rounding (sums run in another order).
      for (let i = plans.length - 1, sum = 0; i >= 0; i--) remaining[i] = (sum += plans[i].bound) * (1 + 1e-9);
      remaining[plans.length] = 0;
    }
    let candidates: Int32Array | undefined;
    let nCandidates = 0;
    let threshold = -Infinity;
    const collectUntil = Math.max(limit, countUpTo);
    for (let i = 0; i < plans.length; i++) {
      const { bit, idf, lists, disjoint } = plans[i];
      if (candidates) {
        this.creditCandidates(candidates, nCandidates, lists, credit, idf, bit, titleWeight, headingWeight);
        if (nCandidates > limit) threshold = Math.max(threshold, below(this.kthScore(candidates, nCandidates, limit)));
        nCandidates = keepReachable(candidates, nCandidates, bm25, remaining[i + 1], threshold);
        continue;
      }
      if (disjoint) {
        for (const { list } of lists) {
          const { slots: ps, counts, length } = list;
          for (let j = 0; j < length; j++) {
            const s = ps[j];
            if (alive[s] !== 0) credit(s, weightedOf(counts[j], titleWeight, headingWeight), idf, bit);
          }
        }
      } else {
        let nTerm = 0;
        const mark = ++this.stampOf;
        for (const { list } of lists) {
          const { slots: ps, counts, length } = list;
          for (let j = 0; j < length; j++) {
            const s = ps[j];
            if (alive[s] === 0) continue;
            const f = weightedOf(counts[j], titleWeight, headingWeight);
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
      // Worth checking only when there is a next term and it would cost more to walk than the check (a selection over
      // the chunks found so far).
      if (!pruning || nTouched < collectUntil || i + 1 === plans.length) continue;
      if (plans[i + 1].lists.reduce((n, l) => n + l.list.length, 0) < nTouched) continue;
      threshold = below(this.kthScore(touched, nTouched, limit));
      if (remaining[i + 1] >= threshold) continue;
      candidates = this.scratch!.candidates;
      nCandidates = 0;
      for (let j = 0; j < nTouched; j++) candidates[nCandidates++] = touched[j];
      nCandidates = keepReachable(candidates, nCandidates, bm25, remaining[i + 1], threshold);
      // Ascending slots, as the posting lists: each remaining list is then searched forward once.
      candidates.subarray(0, nCandidates).sort();
    }
    const ranked = candidates ? this.bestOf(candidates, nCandidates, limit, idfs) : this.bestOf(touched, nTouched, limit, idfs);
    const hits: IndexHit[] = [];
    for (let j = 0; j < ranked.length && j < limit; j++) {
      const s = ranked[j];
      hits.push({ chunkId: this.ids[s], bm25: bm25[s], matched: matched[s], found: found[s] >>> 0 });
    }
    // The scratch arrays serve the next query (scoring is synchronous, so no two queries share them at once).
    for (let j = 0; j < nTouched; j++) {
      const s = touched[j];
      bm25[s] = 0;
      found[s] = 0;
    }
    for (const s of ranked) matched[s] = 0;
    return { hits, scored: nTouched };
  }

  /**
   * One term's share added to each of the first `n` candidates (ascending slots) that holds it, its lists searched
   * forward by galloping: a list far longer than the candidates is mostly skipped.
   */
  private creditCandidates(
    candidates: Int32Array,
    n: number,
    lists: Array<{ list: PostingList }>,
    credit: (s: number, f: number, idf: number, bit: number) => void,
    idf: number,
    bit: number,
    titleWeight: number,
    headingWeight: number,
  ): void {
    const { tf, stamp } = this.scratch!;
    const mark = ++this.stampOf;
    for (const { list } of lists) {
      const { slots, counts, length } = list;
      let at = 0;
      for (let c = 0; c < n && at < length; c++) {
        const s = candidates[c];
        at = seek(slots, length, at, s);
        if (at < length && slots[at] === s) {
          const f = weightedOf(counts[at], titleWeight, headingWeight);
          if (stamp[s] !== mark) {
            stamp[s] = mark;
            tf[s] = f;
          } else tf[s] += f;
        }
      }
    }
    for (let c = 0; c < n; c++) {
      const s = candidates[c];
      if (stamp[s] === mark) credit(s, tf[s], idf, bit);
    }
  }

  /** The `k`-th best score among the first `n` slots of `slots` (the lowest when fewer). */
  private kthScore(slots: Int32Array, n: number, k: number): number {
    const { bm25, values } = this.scratch!;
    for (let j = 0; j < n; j++) values[j] = bm25[slots[j]];
    return kthLargest(values, n, Math.min(k, n));
  }

  /** The saturation parameters' epoch for these values: a new one whenever they differ from the last query's. */
  private saturationFor(normBase: number, normPerToken: number, titleWeight: number, headingWeight: number): Saturation {
    const s = this.saturation;
    if (s && s.normBase === normBase && s.normPerToken === normPerToken && s.titleWeight === titleWeight && s.headingWeight === headingWeight) return s;
    return (this.saturation = { epoch: (s?.epoch ?? 0) + 1, normBase, normPerToken, titleWeight, headingWeight });
  }
  private saturation?: Saturation;

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
   * The best of the first `n` slots of `touched`, best first: at least the best `limit` (ties at the limit-th score are all
   * kept, ordered). The limit-th best BM25 is found by selection over a copy of the scores; only the slots at or above it
   * get their `matched` (the IDF of the terms `found`, summed in term order) and are sorted.
   */
  private bestOf(touched: Int32Array, n: number, limit: number, idfs: number[]): number[] {
    const { bm25, matched, found } = this.scratch!;
    let chosen: number[];
    if (limit >= n) chosen = Array.from(touched.subarray(0, n));
    else {
      const threshold = this.kthScore(touched, n, limit);
      chosen = [];
      for (let j = 0; j < n; j++) if (bm25[touched[j]] >= threshold) chosen.push(touched[j]);
    }
    for (const s of chosen) {
      let sum = 0;
      for (let bits = found[s], i = 0; bits !== 0; bits >>>= 1, i++) if (bits & 1) sum += idfs[i];
      matched[s] = sum;
    }
    const ids = this.ids;
    return chosen.sort((x, y) => bm25[y] - bm25[x] || matched[y] - matched[x] || ids[x] - ids[y]);
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
    candidates: Int32Array;
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
        candidates: new Int32Array(size),
        values: new Float64Array(size),
      };
      this.stampOf = 0;
    }
    // A query takes up to two marks per term (MAX_INDEX_TERMS of them): reset well before the counter could wrap.
    if (this.stampOf > 0xffffff00) {
      this.scratch.stamp.fill(0);
      this.stampOf = 0;
    }
    return this.scratch;
  }
}

/** A score a hair below `score` (relative, so at any scale): what pruning compares with, so that rounding never drops a tie. */
const below = (score: number) => score - Math.abs(score) * 1e-12;

/**
 * Keeps, in order, those of the first `n` candidates whose score plus what the remaining terms can add reaches
 * `threshold` (strictly below it, a chunk cannot tie the limit-th best). Answers how many were kept.
 */
function keepReachable(candidates: Int32Array, n: number, bm25: Float64Array, remaining: number, threshold: number): number {
  let kept = 0;
  for (let c = 0; c < n; c++) {
    const s = candidates[c];
    if (bm25[s] + remaining >= threshold) candidates[kept++] = s;
  }
  return kept;
}

/** The first index at or after `from` whose slot is at least `target` (`length` if none): galloping, then a binary search. */
function seek(slots: Int32Array, length: number, from: number, target: number): number {
  if (from >= length || slots[from] >= target) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < length && slots[hi] < target) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > length) hi = length;
  // slots[lo] < target, and slots[hi] >= target or hi = length.
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid] < target) lo = mid;
    else hi = mid;
  }
  return hi;
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
