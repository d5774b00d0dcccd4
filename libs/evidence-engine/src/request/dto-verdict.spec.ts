import 'reflect-metadata';
import { IsString, MinLength, validateSync } from 'class-validator';
import { seededRandom } from '@platform/testing';
import { instantiate } from './dto-instance';
import { passesEveryRule } from './dto-verdict';
import { ReviewRequestDto, SourceDto } from './review-request.dto';

/** dto-problems.ts's options: the verdict must agree with class-validator under exactly these. */
const OPTIONS = { whitelist: false, forbidUnknownValues: false, validationError: { target: false, value: true } };

const OMIT = Symbol('omit');

describe('passesEveryRule (judging the plain request against the DTO class)', () => {
  const next = seededRandom(20261126);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  // Mostly right, sometimes wrong in every way a client can be wrong.
  const odd = (): unknown => pick([OMIT, null, '', '   ', 0, 7, -1, 1.5, '12', 'x', true, false, [], ['a'], {}, { a: 1 }, [{}], [null], '2026-01-31T12:00:00Z']);
  const maybe = (good: () => unknown): unknown => (next() < 0.85 ? good() : odd());
  const text = () => pick(['s1', 'c1', 'Vitamin C cures colds.', 'x'.repeat(50), 'ü']);
  const object = (fields: Record<string, () => unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [key, make] of Object.entries(fields)) {
      const value = make();
      if (value !== OMIT) out[key] = value;
    }
    if (next() < 0.05) out['unknown_field'] = odd();
    return out;
  };
  const list = (item: () => unknown) => Array.from({ length: Math.floor(next() * 4) }, () => (next() < 0.9 ? item() : odd()));
  const claim = () =>
    object({
      id: () => maybe(text),
      text: () => maybe(text),
      assertiveness: () => maybe(() => pick([OMIT, 'likely', 'certain', 'possible', '', null])),
      source_ids: () => maybe(() => pick([OMIT, list(text)])),
      metadata: () => maybe(() => pick([OMIT, null, { k: 'v' }])),
    });
  const source = () =>
    object({
      id: () => maybe(text),
      url: () => maybe(() => pick([OMIT, null, '', 'https://doi.org/10.1000/1'])),
      title: () => maybe(() => pick([OMIT, null, 'A title'])),
      snippet: () => maybe(() => pick([OMIT, null, 'A snippet'])),
      declared_tier: () => maybe(() => pick([OMIT, OMIT, null, 'peer_reviewed'])),
      declaredTier: () => maybe(() => pick([OMIT, OMIT, null, 'preprint'])),
      metadata: () => maybe(() => pick([OMIT, null, {}])),
    });
  const request = () =>
    object({
      artifact: () =>
        maybe(() =>
          object({
            artifact_id: () => maybe(text),
            answer_text: () => maybe(text),
            question: () => maybe(() => pick([OMIT, null, 'Why?'])),
            tenant_id: () => maybe(() => pick([OMIT, null, 't1'])),
            claims: () => maybe(() => pick([OMIT, list(claim)])),
            sources: () => maybe(() => pick([OMIT, list(source)])),
            metadata: () => maybe(() => pick([OMIT, null, { a: [1] }])),
          }),
        ),
      options: () =>
        maybe(() =>
          pick([
            OMIT,
            null,
            object({
              profile_key: () => maybe(() => pick([OMIT, null, 'default'])),
              label_via_llm: () => maybe(() => pick([OMIT, true, false])),
              dry_run: () => maybe(() => pick([OMIT, true, false])),
              budget: () =>
                maybe(() =>
                  pick([OMIT, null, object({ max_llm_calls: () => maybe(() => pick([OMIT, 0, 3, '4'])), max_tokens: () => maybe(() => pick([OMIT, 100])) })]),
                ),
              reviewed_at: () => maybe(() => pick([OMIT, null, '2026-01-31T12:00:00Z', '2026-02-30T12:00:00Z'])),
            }),
          ]),
        ),
    });

  it('agrees with class-validator on 20,000 generated review requests, valid and invalid', () => {
    let valid = 0;
    for (let i = 0; i < 20_000; i++) {
      const plain = request();
      const verdict = passesEveryRule(ReviewRequestDto, plain);
      const instance = instantiate(ReviewRequestDto, plain);
      // The review DTOs are fully mirrored: a verdict every time, never "ask class-validator".
      expect(verdict).not.toBeUndefined();
      const expected = validateSync(instance, OPTIONS).length === 0;
      if (verdict !== expected) throw new Error(`disagrees (${verdict} vs ${expected}) on ${JSON.stringify(instance)}`);
      if (expected) valid++;
    }
    // Both kinds were met often enough to mean something.
    expect(valid).toBeGreaterThan(2_000);
    expect(valid).toBeLessThan(18_000);
  });

  it('agrees on a source alone, including the declaredTier alias and its ValidateIf', () => {
    for (const declared of [undefined, null, '', 'x', 5]) {
      for (const alias of [undefined, null, '', 'y', 5]) {
        const plain: Record<string, unknown> = { id: 's1' };
        if (declared !== undefined) plain['declared_tier'] = declared;
        if (alias !== undefined) plain['declaredTier'] = alias;
        const instance = instantiate(SourceDto, plain);
        expect(passesEveryRule(SourceDto, plain)).toBe(validateSync(instance, OPTIONS).length === 0);
      }
    }
  });

  it('leaves to class-validator what it cannot mirror (a subclass inherits its rules)', () => {
    class Extended extends SourceDto {}
    expect(passesEveryRule(Extended, { id: 's1' })).toBeUndefined();
  });

  it('agrees on nested values of odd kinds (a Date, a Map, null, a number, arrays in arrays)', () => {
    for (const artifact of [new Date(0), new Map([['artifact_id', 'a']]), null, 7, [[{}]], { artifact_id: 'a', answer_text: 'b', claims: [[]] }]) {
      const plain = { artifact };
      const expected = validateSync(instantiate(ReviewRequestDto, plain), OPTIONS).length === 0;
      expect(passesEveryRule(ReviewRequestDto, plain)).toBe(expected);
    }
  });

  it('judges a rule added after the first verdict (the class is compiled again)', () => {
    class Late {
      @IsString()
      name!: string;
    }
    expect(passesEveryRule(Late, { name: 5 })).toBe(false);
    MinLength(3)(Late.prototype, 'name');
    expect(passesEveryRule(Late, { name: 'ab' })).toBe(false);
    expect(passesEveryRule(Late, { name: 'abc' })).toBe(true);
  });

  it('compiles a class again when a class it extends gets a rule later', () => {
    class Base {}
    class Child extends Base {
      @IsString()
      name!: string;
    }
    expect(passesEveryRule(Child, { name: 'x' })).toBe(true);
    IsString()(Base.prototype, 'other');
    expect(passesEveryRule(Child, { name: 'x' })).toBeUndefined();
  });

  it('reads property names that are not identifiers', () => {
    class Odd {
      @IsString()
      'a "quoted" name\\'!: string;
    }
    expect(passesEveryRule(Odd, { 'a "quoted" name\\': 'x' })).toBe(true);
    expect(passesEveryRule(Odd, { 'a "quoted" name\\': 1 })).toBe(false);
  });
});
