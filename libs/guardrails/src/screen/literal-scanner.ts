/**
 * Finds which groups of literal strings occur in a text, all groups in one left-to-right pass
 * (an Aho–Corasick automaton over UTF-16 code units). The pass costs one table step per code unit
 * whatever the literals are, so it cannot be made slow by a crafted text or literal set: this is
 * what lets screening decide in-process that a rule cannot match, without ever running the rule.
 */
export class LiteralScanner {
  /** Code unit -> symbol (0 = a unit no literal uses). */
  private readonly symbolOf = new Uint16Array(0x10000);
  private readonly symbols: number;
  /**
   * Deterministic transitions, `next[row + symbol]` where a state's row is `state * symbols`. The
   * entry is the target's row, or `-1 - row` when the target completes a literal (one sign test per
   * code unit instead of a second lookup).
   */
  private readonly next: Int32Array;
  /** Groups whose literal ends in a state (through suffix links too), or null. */
  private readonly found: Array<number[] | null>;
  readonly groups: number;

  /** Throws a RangeError when the automaton would exceed `maxCells` table cells. */
  constructor(literalGroups: ReadonlyArray<readonly string[]>, maxCells = 4_000_000) {
    this.groups = literalGroups.length;
    let symbols = 1;
    for (const group of literalGroups) {
      for (const literal of group) {
        if (literal.length === 0) throw new RangeError('empty literal');
        for (let i = 0; i < literal.length; i++) {
          const unit = literal.charCodeAt(i);
          if (this.symbolOf[unit] === 0) this.symbolOf[unit] = symbols++;
        }
      }
    }
    this.symbols = symbols;

    // Trie of all literals; state 0 is the root.
    const goto: Array<Map<number, number>> = [new Map()];
    const ends: Array<Set<number>> = [new Set()];
    literalGroups.forEach((group, g) => {
      for (const literal of group) {
        let state = 0;
        for (let i = 0; i < literal.length; i++) {
          const symbol = this.symbolOf[literal.charCodeAt(i)];
          let target = goto[state].get(symbol);
          if (target === undefined) {
            target = goto.length;
            goto.push(new Map());
            ends.push(new Set());
            goto[state].set(symbol, target);
          }
          state = target;
        }
        ends[state].add(g);
      }
    });
    if (goto.length * symbols > maxCells) throw new RangeError('too many literals to scan for');

    // Breadth-first: each state's missing transitions are its suffix link's, and it reports the
    // groups its suffix link reports.
    this.next = new Int32Array(goto.length * symbols);
    const link = new Int32Array(goto.length);
    const order: number[] = [];
    for (const [symbol, child] of goto[0]) {
      this.next[symbol] = child;
      order.push(child);
    }
    for (let k = 0; k < order.length; k++) {
      const state = order[k];
      for (const g of ends[link[state]]) ends[state].add(g);
      for (let symbol = 1; symbol < symbols; symbol++) {
        const child = goto[state].get(symbol);
        const fallback = this.next[link[state] * symbols + symbol];
        if (child === undefined) {
          this.next[state * symbols + symbol] = fallback;
        } else {
          link[child] = fallback;
          this.next[state * symbols + symbol] = child;
          order.push(child);
        }
      }
    }
    this.found = ends.map((set) => (set.size ? [...set] : null));
    for (let cell = 0; cell < this.next.length; cell++) {
      const target = this.next[cell];
      this.next[cell] = this.found[target] ? -1 - target * symbols : target * symbols;
    }
  }

  /** `present[g]` is 1 when some literal of group `g` occurs in `text`. */
  scan(text: string): Uint8Array {
    const present = new Uint8Array(this.groups);
    let missing = this.groups;
    const { symbolOf, symbols, next, found } = this;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      row = next[row + symbolOf[text.charCodeAt(i)]];
      if (row >= 0) continue;
      row = -1 - row;
      for (const g of found[row / symbols]!) {
        if (present[g] === 0) {
          present[g] = 1;
          missing--;
        }
      }
      if (missing === 0) break;
    }
    return present;
  }
}
