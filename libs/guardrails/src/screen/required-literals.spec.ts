import { seededRandom } from '@platform/testing';
import { compileDelimitedPattern } from './delimited-pattern';
import { DEFAULT_SCREEN_RULES } from './default-rules';
import { ATTACKS, BENIGN, OBFUSCATED_ATTACKS } from './fixtures/prompt-corpus';
import { normalizeText } from './normalize';
import { LiteralRequirement, requiredLiterals } from './required-literals';

/** The requirement's meaning, evaluated naively (independent of the scanner). */
function met(r: LiteralRequirement, text: string): boolean {
  if ('any' in r) return r.any.some((s) => text.includes(s));
  if ('all' in r) return r.all.every((c) => met(c, text));
  return r.either.some((c) => met(c, text));
}

/** Small random patterns over a tiny alphabet: every construct the analysis handles, nested. */
function randomPattern(next: () => number, depth = 0): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  const atom = (): string => {
    const roll = next();
    if (depth < 3 && roll < 0.2) return `(?:${randomPattern(next, depth + 1)})`;
    if (depth < 3 && roll < 0.25) return `(${randomPattern(next, depth + 1)})`;
    if (depth < 3 && roll < 0.3) return `(?${pick(['=', '!', '<=', '<!'])}${randomPattern(next, depth + 1)})`;
    if (roll < 0.4) return pick(['[ab]', '[a-c]', '[^a]', '\\w', '.', '\\s', '[é😀]']);
    if (roll < 0.45) return pick(['^', '$', '\\b', '\\B']);
    return pick(['a', 'b', 'c', ' ', 'é', '😀', 'ab', 'ba', 'abc', 'cab', 'bcé', 'a😀b']);
  };
  const quantified = () => `${atom()}${next() < 0.3 ? pick(['?', '*', '+', '{2}', '{1,3}', '{0,2}', '+?', '??']) : ''}`;
  const sequence = () => Array.from({ length: 1 + Math.floor(next() * 4) }, quantified).join('');
  return Array.from({ length: 1 + Math.floor(next() * 2.5) }, sequence).join('|');
}

function randomText(next: () => number): string {
  const pieces = ['a', 'b', 'c', ' ', 'é', '😀', 'x', 'abc', 'cab', 'bcé', 'ab', 'ba'];
  return Array.from({ length: Math.floor(next() * 8) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
}

describe('requiredLiterals', () => {
  it('asks for the words a sequence spells, the rarest of each sequence, either branch of an alternation', () => {
    expect(requiredLiterals('ignore\\s+previous', 'u')).toEqual({ all: [{ any: ['ignore'] }, { any: ['previo'] }] });
    expect(requiredLiterals('r[èe]gles?', 'u')).toEqual({ any: ['règle', 'regle'] });
    expect(requiredLiterals('(?:secret|token)s?', 'u')).toEqual({ any: ['token', 'secret'] });
    expect(requiredLiterals('api\\s*key|passwords?', 'u')).toEqual({ either: [{ any: ['passwo'] }, { all: [{ any: ['api'] }, { any: ['key'] }] }] });
  });

  it('gives nothing it cannot guarantee', () => {
    for (const [source, flags] of [
      ['ignore', 'iu'], // a case-insensitive literal also matches its case variants
      ['ignore', ''], // without u the syntax reads differently
      ['\\w+@\\w+', 'u'], // only a one-character literal: nearly every text has one
      ['(a)\\1', 'u'],
      ['.+', 'u'],
      ['abc|.', 'u'], // one branch needs nothing
      ['x?yz?', 'u'],
      ['(?:abc){0,3}', 'u'],
      ['a++', 'u'], // does not parse
      ['[^abc]{3}', 'u'],
    ]) {
      expect([source, requiredLiterals(source, flags)]).toEqual([source, null]);
    }
  });

  it('never asks for something a matching text lacks (random patterns and texts)', () => {
    const next = seededRandom(20261124);
    let checked = 0;
    for (let p = 0; p < 4000; p++) {
      const source = randomPattern(next);
      let re: RegExp;
      try {
        re = new RegExp(source, 'u');
      } catch {
        continue;
      }
      const requirement = requiredLiterals(source, 'u');
      if (!requirement) continue;
      for (let t = 0; t < 40; t++) {
        const text = randomText(next);
        if (re.test(text)) {
          checked++;
          expect({ source, text, met: met(requirement, text) }).toEqual({ source, text, met: true });
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('never asks for something a matching text lacks (default rules over the prompt corpora)', () => {
    const prompts = [...ATTACKS.map(([p]) => p), ...OBFUSCATED_ATTACKS, ...BENIGN];
    const settings = { enabled: true, nfkc: true, strip_zero_width: true, casefold: true, fold_confusables: true, decode_base64_blobs: false };
    let matched = 0;
    for (const pattern of Object.values(DEFAULT_SCREEN_RULES)) {
      const { source, flags } = compileDelimitedPattern(pattern);
      // The rules run without `i` on casefolded text (see ruleset.ts); that is the prefiltered form.
      const caseSensitive = flags.replace('i', '');
      const requirement = requiredLiterals(source, caseSensitive);
      expect(requirement).not.toBeNull();
      const re = new RegExp(source, caseSensitive);
      for (const prompt of prompts) {
        const text = normalizeText(prompt, settings);
        if (re.test(text)) {
          matched++;
          expect({ pattern: source.slice(0, 40), text, met: met(requirement!, text) }).toEqual({ pattern: source.slice(0, 40), text, met: true });
        }
      }
    }
    expect(matched).toBeGreaterThanOrEqual(ATTACKS.length);
  });

  it('reads hostile patterns without running them and gives up on ones nested beyond the stack', () => {
    expect(requiredLiterals('^(a+)+$', 'u')).toBeNull();
    expect(requiredLiterals('(?=(a+)+b)(a|aa)+zzz', 'u')).toEqual({ any: ['zzz'] });
    expect(requiredLiterals(`${'('.repeat(50_000)}abc${')'.repeat(50_000)}`, 'u')).toBeNull();
    expect(requiredLiterals(`(?:${Array.from({ length: 3000 }, (_, i) => `w${i}x`).join('|')})`, 'u')).toBeNull();
    // Many short optional parts multiply into large string sets: given up on past the work budget.
    expect(requiredLiterals('abcdefghij?'.repeat(1800), 'u')).toBeNull();
    // A long literal is read in bounded pieces.
    expect(requiredLiterals('abcdefghij'.repeat(1990), 'u')).toEqual({ all: [{ any: ['abcdef'] }, { any: ['efghij'] }, { any: ['ijabcd'] }] });
  });
});
