/**
 * Feature hashing for the prompt classifier: word unigrams and bigrams plus character n-grams
 * (lengths from the model's config) of the (normalized) prompt, hashed into a fixed number of
 * buckets. Training and screening count with this same code, so the committed weights always line
 * up with what the screen computes. Hashing is integer arithmetic in one pass over the text, so the
 * buckets are the same on every platform; cheap enough to run on every prompt in the request thread.
 */

/** A sparse feature vector: bucket indices (ascending, distinct) and their values. */
export interface SparseVector {
  indices: Uint32Array;
  values: Float64Array;
}

export interface FeatureConfig {
  /** log2 of the number of buckets. */
  bits: number;
  /** Character n-gram lengths, inclusive. */
  charMin: number;
  charMax: number;
  /**
   * Least squared norm each family is divided by (words, character grams). Without it a prompt of
   * one or two words gets full-length feature values and one strongly weighted word ("now")
   * decides alone; with it, short prompts score near the prior and need several signals.
   */
  wordFloor: number;
  charFloor: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units, continued from `h` (32-bit, unsigned). */
function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Namespaces keep a word and a character n-gram with the same spelling in different buckets. */
const WORD_SEED = fnv(FNV_OFFSET, 'w\u0000');
const BIGRAM_SEED = fnv(FNV_OFFSET, 'b\u0000');
const CHAR_SEED = fnv(FNV_OFFSET, 'c\u0000');

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[^\s\p{L}\p{N}]/gu;

/**
 * One feature family's counts by bucket while a text is featurized: a dense array over every bucket
 * plus the buckets touched, in first-touch order (the order the sums below run in). Reused from one
 * call to the next and zeroed after each, since featurizing is synchronous: a Map per family and
 * text was most of the ingest screen's time on long chunks. Counts are integers (Uint32Array: half
 * the memory of floats, fewer cache misses on text with many distinct grams); only the merged
 * vector that training reads holds floats.
 */
interface Family<C extends Uint32Array | Float64Array = Uint32Array> {
  counts: C;
  touched: number[];
}

/** The arrays of the last bucket count used (a process screens with one model, so one size). */
let families: { bits: number; words: Family; chars: Family } | undefined;
let merged: { bits: number; family: Family<Float64Array> } | undefined;

function familiesFor(bits: number) {
  if (families?.bits !== bits) {
    const family = (): Family => ({ counts: new Uint32Array(1 << bits), touched: [] });
    families = { bits, words: family(), chars: family() };
  }
  return families;
}

function mergedFor(bits: number): Family<Float64Array> {
  if (merged?.bits !== bits) merged = { bits, family: { counts: new Float64Array(1 << bits), touched: [] } };
  return merged.family;
}

function addCount(family: Family, key: number): void {
  if (family.counts[key] === 0) family.touched.push(key);
  family.counts[key] += 1;
}

/** A count's feature value before scaling: sub-linear, 1 + ln tf. */
const sublinear = (count: number) => 1 + Math.log(count);

/** Sub-linear counts (1 + ln tf), scaled to unit length (or less, below `floor`), then weighted into `into`. */
function scaled(family: Family, weight: number, floor: number, into: Family<Float64Array>): void {
  const { counts, touched } = family;
  let norm = 0;
  for (const k of touched) {
    const v = sublinear(counts[k]);
    norm += v * v;
  }
  if (norm === 0) return;
  const f = weight / Math.sqrt(Math.max(norm, floor));
  for (const k of touched) {
    if (into.counts[k] === 0) into.touched.push(k);
    into.counts[k] += sublinear(counts[k]) * f;
  }
}

function clear(family: Family<Uint32Array | Float64Array>): void {
  for (const k of family.touched) family.counts[k] = 0;
  family.touched.length = 0;
}

/**
 * Where counting `text` has got to: the casefolded text and its whitespace-collapsed form, the next
 * token's search position and the token before it (for bigrams), and the next character gram's start.
 * Counting can stop at any position and go on later (see weightedSumInTurns), because this is all
 * the state it carries from one token or gram to the next.
 */
interface GramCursor {
  lower: string;
  compact: string;
  tokenFrom: number;
  /** The token found at `tokenFrom` when the last turn stopped before it (found once, not again each turn). */
  pending: RegExpExecArray | null;
  previous: string | null;
  charFrom: number;
}

/**
 * Casefolding is repeated here (cheap and idempotent) so a host that switched normalization off
 * still scores text the way the model was trained. Character n-grams run over the text with
 * whitespace runs collapsed and a space at each end, so word edges are part of the grams ("ign" at
 * a word start differs from "ign" inside one).
 */
function cursorOf(text: string): GramCursor {
  const lower = text.toLowerCase();
  return { lower, compact: ` ${lower.replace(/\s+/g, ' ').trim()} `, tokenFrom: 0, pending: null, previous: null, charFrom: 0 };
}

/** Whether `countGrams` has counted every token and character gram of the cursor's text. */
const counted = (c: GramCursor) => c.tokenFrom >= c.lower.length && c.charFrom >= c.compact.length;

/**
 * Counts the word 1–2-grams of the tokens starting before `c.lower[upTo]` into `words`, and the
 * character n-grams starting before `c.compact[upTo]` into `chars`, from where the cursor stands,
 * and moves it on. With `upTo` past the end, the rest of the text.
 */
function countGrams(c: GramCursor, config: FeatureConfig, words: Family, chars: Family, upTo = Infinity): void {
  const mask = (1 << config.bits) - 1;
  const { lower, compact } = c;
  // exec over the one global expression: matchAll would clone it (and its compiled code) per call,
  // which for a short text costs more than the text itself. Its position is set before every search,
  // since another text may have used it between two turns of this one.
  let previous = c.previous;
  let match = c.pending;
  if (match === null) {
    TOKEN.lastIndex = c.tokenFrom;
    match = TOKEN.exec(lower);
  }
  c.pending = null;
  c.tokenFrom = lower.length;
  while (match !== null) {
    if (match.index >= upTo) {
      c.pending = match;
      c.tokenFrom = match.index;
      break;
    }
    const token = match[0];
    addCount(words, fnv(WORD_SEED, token) & mask);
    if (previous !== null) addCount(words, fnv(fnv(BIGRAM_SEED, previous), ` ${token}`) & mask);
    previous = token;
    TOKEN.lastIndex = match.index + token.length;
    match = TOKEN.exec(lower);
  }
  c.previous = previous;

  const startsEnd = Math.min(upTo, compact.length);
  for (let start = c.charFrom; start < startsEnd && start + config.charMin <= compact.length; start++) {
    let h = CHAR_SEED;
    const last = Math.min(compact.length, start + config.charMax);
    for (let end = start; end < last; end++) {
      h = Math.imul(h ^ compact.charCodeAt(end), FNV_PRIME);
      if (end - start + 1 >= config.charMin) addCount(chars, (h >>> 0) & mask);
    }
  }
  c.charFrom = Math.max(c.charFrom, Math.min(upTo, compact.length));
}

/** The feature vector of `text` (what training learns from). */
export function featurize(text: string, config: FeatureConfig): SparseVector {
  const { words, chars } = familiesFor(config.bits);
  const merged = mergedFor(config.bits);
  try {
    countGrams(cursorOf(text), config, words, chars);
    // Both families weigh the same: words carry phrasing, character grams carry spelling variants.
    scaled(words, Math.SQRT1_2, config.wordFloor, merged);
    scaled(chars, Math.SQRT1_2, config.charFloor, merged);
    const indices = Uint32Array.from(merged.touched).sort();
    // A plain loop: Float64Array.from with a mapping function took a slow generic path that cost
    // more than featurizing a sentence.
    const values = new Float64Array(indices.length);
    for (let k = 0; k < indices.length; k++) values[k] = merged.counts[indices[k]];
    return { indices, values };
  } finally {
    clear(words);
    clear(chars);
    clear(merged);
  }
}

/** Runs a generator to its end without pausing, and answers what it returns. */
export function runToEnd<T>(run: Generator<void, T, void>): T {
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
  }
}

/** The running sums of one family's share of the linear score: squared norm and weighted sum of its values. */
interface Sums {
  norm: number;
  dot: number;
}

/**
 * Adds buckets `keys[from…to)` to `sums`, in that order: the sub-linear value of each bucket's count
 * (`counts[k]` when `byBucket`, else `counts[i]`, aligned with the keys) squared into the norm and
 * times its weight into the dot product. Every way of scoring adds the buckets in first-touch order,
 * so their sums are equal bit for bit.
 */
function addBuckets(sums: Sums, keys: ArrayLike<number>, counts: ArrayLike<number>, byBucket: boolean, from: number, to: number, weights: ArrayLike<number>): void {
  let { norm, dot } = sums;
  for (let i = from; i < to; i++) {
    const k = keys[i];
    const v = sublinear(byBucket ? counts[k] : counts[i]);
    norm += v * v;
    dot += v * weights[k];
  }
  sums.norm = norm;
  sums.dot = dot;
}

/** A family's share of the linear score from its sums: scaled as in `scaled` (unit length, or less below `floor`). */
const shareOf = ({ norm, dot }: Sums, floor: number) => (norm === 0 ? 0 : (dot * Math.SQRT1_2) / Math.sqrt(Math.max(norm, floor)));

/** A family's touched buckets and dense counts, as familiesScore reads them. */
const dense = (f: Family) => ({ keys: f.touched, counts: f.counts, byBucket: true });

/** Both families' shares, yielding after every `perTurn` buckets (keys and counts as in addBuckets; Infinity: never). */
function* familiesScore(
  words: { keys: ArrayLike<number>; counts: ArrayLike<number>; byBucket: boolean },
  chars: { keys: ArrayLike<number>; counts: ArrayLike<number>; byBucket: boolean },
  config: FeatureConfig,
  weights: ArrayLike<number>,
  perTurn = Infinity,
): Generator<void, number, void> {
  const sums = [{ norm: 0, dot: 0 }, { norm: 0, dot: 0 }];
  for (const [f, family] of [words, chars].entries()) {
    for (let from = 0; from < family.keys.length; from += perTurn) {
      if (from > 0) yield;
      addBuckets(sums[f], family.keys, family.counts, family.byBucket, from, Math.min(family.keys.length, from + perTurn), weights);
    }
  }
  return shareOf(sums[0], config.wordFloor) + shareOf(sums[1], config.charFloor);
}

/**
 * `Σ weights[k] · featurize(text)[k]` without building the vector: the screen's path, where the
 * merged, sorted vector only cost time (the score is linear in both families). Equal to
 * `linearScore(featurize(text, config), weights, 0)` up to the order of floating-point additions.
 */
export function weightedSum(text: string, config: FeatureConfig, weights: ArrayLike<number>): number {
  return weightedSumAt(cursorOf(text), config, weights);
}

function weightedSumAt(cursor: GramCursor, config: FeatureConfig, weights: ArrayLike<number>): number {
  const { words, chars } = familiesFor(config.bits);
  try {
    countGrams(cursor, config, words, chars);
    return runToEnd(familiesScore(dense(words), dense(chars), config, weights));
  } finally {
    clear(words);
    clear(chars);
  }
}

/** Adds a family's counts into `into` (first touches appended, so the map keeps first-touch order), then clears it. */
function drain(family: Family, into: Map<number, number>): void {
  for (const k of family.touched) into.set(k, (into.get(k) ?? 0) + family.counts[k]);
  clear(family);
}

/** How many long texts at once may count in arrays of their own (8 MiB a pair, allocated when first needed). */
const LENDABLE_PAIRS = 4;

/**
 * Pairs of counting arrays, each lent to one long text for all its turns (the shared pair must be
 * clear whenever a turn ends, since another screen may run before the next turn).
 */
interface LendablePool {
  bits: number;
  free: LentPair[];
  made: number;
}
/** A pair of counting arrays and the pool it belongs to (a pool of another size does not take it back). */
interface LentPair {
  words: Family;
  chars: Family;
  pool: LendablePool;
}
let lendable: LendablePool | undefined;

function borrowFamilies(bits: number): LentPair | undefined {
  if (lendable?.bits !== bits) {
    // A model of another size: pairs still lent are dropped when given back.
    lendable = { bits, free: [], made: 0 };
  }
  const pair = lendable.free.pop();
  if (pair) return pair;
  if (lendable.made >= LENDABLE_PAIRS) return undefined;
  lendable.made++;
  const family = (): Family => ({ counts: new Uint32Array(1 << bits), touched: [] });
  return { words: family(), chars: family(), pool: lendable };
}

/** How many lendable pairs long texts hold now (for tests: every pair comes back when its text is done). */
export function lentPairs(): number {
  return lendable ? lendable.made - lendable.free.length : 0;
}

function giveBack(pair: LentPair): void {
  clear(pair.words);
  clear(pair.chars);
  if (pair.pool === lendable) lendable.free.push(pair);
}

/**
 * The same sum, bit for bit, counted `turnChars` characters at a time (a whole number, or Infinity
 * for one turn): the generator yields between turns, so screens can interleave. A text of at most
 * `turnChars` characters is counted in one turn as `weightedSum` counts it. A longer one counts in a
 * lent pair of arrays and is scored `turnChars` buckets per turn; when LENDABLE_PAIRS long texts
 * already hold one, each turn counts a quarter as much into the shared arrays and drains them into
 * maps of its own, slower but never holding the shared arrays over a pause. The screen's path for
 * long prompts (prompt-classifier.ts).
 */
export function* weightedSumInTurns(text: string, config: FeatureConfig, weights: ArrayLike<number>, turnChars: number): Generator<void, number, void> {
  if (!(turnChars === Infinity || (Number.isInteger(turnChars) && turnChars >= 1))) throw new RangeError(`turnChars must be a whole number of at least 1, or Infinity: ${turnChars}`);
  const cursor = cursorOf(text);
  if (cursor.compact.length <= turnChars && cursor.lower.length <= turnChars) return weightedSumAt(cursor, config, weights);
  const own = borrowFamilies(config.bits);
  if (own) {
    try {
      for (let upTo = turnChars; ; upTo += turnChars) {
        countGrams(cursor, config, own.words, own.chars, upTo);
        if (counted(cursor)) break;
        yield;
      }
      yield;
      return yield* familiesScore(dense(own.words), dense(own.chars), config, weights, turnChars);
    } finally {
      giveBack(own);
    }
  }
  const { words, chars } = familiesFor(config.bits);
  const wordCounts = new Map<number, number>();
  const charCounts = new Map<number, number>();
  const step = Math.max(1, Math.floor(turnChars / 4));
  for (let upTo = step; ; upTo += step) {
    try {
      countGrams(cursor, config, words, chars, upTo);
    } finally {
      drain(words, wordCounts);
      drain(chars, charCounts);
    }
    if (counted(cursor)) break;
    yield;
  }
  yield;
  // Listed in insertion (first-touch) order; the maps are emptied at once, so only the lists stay in memory.
  const listed = (m: Map<number, number>) => {
    const list = { keys: [...m.keys()], counts: [...m.values()], byBucket: false };
    m.clear();
    return list;
  };
  return yield* familiesScore(listed(wordCounts), listed(charCounts), config, weights, step);
}
