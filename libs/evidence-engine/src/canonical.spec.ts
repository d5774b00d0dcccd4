import { canonicalJson, sha256Hex } from './canonical';
import { orderedRecord } from './ordered-record';

describe('canonicalJson', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives the same text whatever order keys were written in', () => {
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('writes what JSON would for dates, undefined and non-JSON values', () => {
    expect(canonicalJson({ at: new Date(0), gone: undefined, list: [undefined, () => 1] })).toBe(
      '{"at":"1970-01-01T00:00:00.000Z","list":[null,null]}',
    );
  });

  it('puts integer-like keys first in numeric order, as JavaScript objects do, whatever the input order', () => {
    expect(canonicalJson({ b: 1, 10: 2, 2: 3 })).toBe('{"2":3,"10":2,"b":1}');
    expect(canonicalJson(JSON.parse('{"b":1,"2":3,"10":2}'))).toBe('{"2":3,"10":2,"b":1}');
  });

  it('keeps a "__proto__" key as a key (it is hashed, not turned into a prototype)', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":2}}'))).toBe('{"__proto__":{"x":2},"b":1}');
    expect(JSON.stringify(orderedRecord([['__proto__', 1], ['a', 2]]))).toBe('{"__proto__":1,"a":2}');
  });

  it('hashes with sha256 in hex', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('orderedRecord', () => {
  it('enumerates keys in the order first set, even integer-like ones', () => {
    const r = orderedRecord<number>([
      ['b', 1],
      ['10', 2],
      ['2', 3],
    ]);
    r['a'] = 4;
    r['10'] = 5;
    expect(Object.keys(r)).toEqual(['b', '10', '2', 'a']);
    expect(JSON.stringify(r)).toBe('{"b":1,"10":5,"2":3,"a":4}');
  });

  it('behaves as a plain record otherwise', () => {
    const r = orderedRecord([['1', 'x']]);
    expect(r).toEqual({ 1: 'x' });
    expect('1' in r).toBe(true);
    delete r['1'];
    expect(Object.keys(r)).toEqual([]);
    expect(JSON.stringify(r)).toBe('{}');
  });
});
