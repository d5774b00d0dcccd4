import { getMetadataStorage, IsInt, IsOptional, IsString, MaxLength, Min, validateSync, ValidateNested } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString()
  name!: unknown;
}

class Child extends Base {
  @IsInt()
  @Min(1)
  count!: unknown;
}

class Holder {
  @ValidateNested()
  child!: unknown;

  @IsOptional()
  @MaxLength(3)
  note?: unknown;
}

const messages = (o: object) => JSON.stringify(validateSync(o, { whitelist: true, forbidNonWhitelisted: true }).map((e) => [e.property, e.constraints, (e.children ?? []).map((c) => [c.property, c.constraints])]));
const holder = (child: Record<string, unknown>, note?: unknown) => Object.assign(new Holder(), { child: Object.assign(new Child(), child), note });

describe('cacheValidationMetadata', () => {
  const cases = [holder({ name: 'a', count: 2 }), holder({ name: 1, count: 0 }, 'long'), holder({ count: 'x', extra: true }), Object.assign(new Base(), { name: 5 })];
  const uncached = cases.map(messages);

  beforeAll(() => cacheValidationMetadata());

  it('answers every validation as class-validator does without it, inherited and nested rules included, and repeats its answers', () => {
    expect(cases.map(messages)).toEqual(uncached);
    expect(cases.map(messages)).toEqual(uncached);
    const storage = getMetadataStorage();
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(storage.getTargetValidationMetadatas(Child, '', false, false));
  });

  it('remembers nothing for a target that is not a class (a JSON object may name its own constructor)', () => {
    const storage = getMetadataStorage();
    const chosen = { prototype: {} } as unknown as Function;
    expect(storage.getTargetValidationMetadatas(chosen, '', false, false)).not.toBe(storage.getTargetValidationMetadatas(chosen, '', false, false));
    expect(messages(Object.assign(new Holder(), { child: { constructor: { prototype: {} }, name: 'x' } }))).toBe(messages(Object.assign(new Holder(), { child: { constructor: { prototype: {} }, name: 'x' } })));
  });

  it('keeps lookups apart by options and sees rules registered after a lookup', () => {
    const storage = getMetadataStorage();
    const plain = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['admin'])).not.toBe(plain);
    expect(messages(Object.assign(new Child(), { name: 'a', count: 2 }))).toBe('[]');

    // A rule declared later (a module loaded after the first request) applies from then on.
    IsString()(Child.prototype, 'count');
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).not.toBe(plain);
    expect(messages(Object.assign(new Child(), { name: 'a', count: 2 }))).toContain('isString');
  });
});
