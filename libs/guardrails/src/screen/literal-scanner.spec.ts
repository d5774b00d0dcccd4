import { LiteralScanner } from './literal-scanner';

const naive = (groups: string[][], text: string) => groups.map((g) => (g.some((s) => text.includes(s)) ? 1 : 0));

describe('LiteralScanner', () => {
  it('reports every group with a literal in the text, overlapping and nested literals included', () => {
    const groups = [['he'], ['she'], ['his', 'hers'], ['xyz'], ['ers']];
    const scanner = new LiteralScanner(groups);
    expect([...scanner.scan('ushers')]).toEqual([1, 1, 1, 0, 1]);
    expect([...scanner.scan('this')]).toEqual([0, 0, 1, 0, 0]);
    expect([...scanner.scan('')]).toEqual([0, 0, 0, 0, 0]);
  });

  it('agrees with a plain substring search on random texts', () => {
    const groups = [['ab', 'ba'], ['abc'], ['cab', 'bcé'], ['😀b'], ['aaaa'], ['é']];
    const scanner = new LiteralScanner(groups);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pieces = ['a', 'b', 'c', 'é', '😀', ' '];
    for (let k = 0; k < 2000; k++) {
      const text = Array.from({ length: Math.floor(next() * 10) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect({ text, found: [...scanner.scan(text)] }).toEqual({ text, found: naive(groups, text) });
    }
  });

  it('scans huge and broken inputs (lone surrogates, every code unit) in one pass', () => {
    const scanner = new LiteralScanner([['needle'], ['\uD83D\uDE00']]);
    const hay = 'a'.repeat(2_000_000);
    expect([...scanner.scan(hay)]).toEqual([0, 0]);
    expect([...scanner.scan(`${hay}needle`)]).toEqual([1, 0]);
    expect([...scanner.scan('\uD83D x \uDE00 \uFFFF \u0000')]).toEqual([0, 0]);
    expect([...scanner.scan('x😀')]).toEqual([0, 1]);
  });

  it('refuses empty literals and automata beyond its size cap', () => {
    expect(() => new LiteralScanner([['']])).toThrow(RangeError);
    expect(() => new LiteralScanner([['abcdefghij', 'klmnopqrst']], 50)).toThrow(/too many/);
  });
});
