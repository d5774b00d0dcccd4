import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ValidationFailedError } from './domain-error';
import { createValidationPipe } from './validation';

class Inner {
  @IsOptional()
  @IsString()
  name?: string;
}

class Body {
  /** A free-form object: its keys are the field's (or the service's) to judge. */
  @IsObject()
  rec!: Record<string, unknown>;

  @IsOptional()
  @ValidateNested()
  @Type(() => Inner)
  inner?: Inner;
}

const pipe = createValidationPipe();
const run = (json: string) => pipe.transform(JSON.parse(json), { type: 'body', metatype: Body }) as Promise<Body>;
const fieldsOf = async (json: string) => {
  const e = await run(json).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ValidationFailedError);
  return (e as ValidationFailedError).errors.map((f) => `${f.field}: ${f.message}`);
};

describe('createValidationPipe: keys named after Object.prototype members', () => {
  it('keeps them in a free-form object as ordinary own keys, nested ones too', async () => {
    const body = await run('{"rec":{"toString":5,"valueOf":false,"constructor":1,"hasOwnProperty":2,"a":{"constructor":3,"isPrototypeOf":4}}}');
    expect(body).toBeInstanceOf(Body);
    expect(Object.keys(body.rec).sort()).toEqual(['a', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']);
    expect(body.rec).toEqual({ toString: 5, valueOf: false, constructor: 1, hasOwnProperty: 2, a: { constructor: 3, isPrototypeOf: 4 } });
    expect(Object.getPrototypeOf(body.rec)).toBe(Object.prototype);
  });

  it('refuses them as unknown properties of a DTO, at the top and nested, each named', async () => {
    expect(await fieldsOf('{"rec":{},"toString":1}')).toEqual(['toString: property toString should not exist']);
    expect(await fieldsOf('{"rec":{},"constructor":1}')).toEqual(['constructor: property constructor should not exist']);
    expect(await fieldsOf('{"rec":{},"inner":{"valueOf":1,"name":"x"}}')).toEqual(['inner.valueOf: property valueOf should not exist']);
    // Reported with the DTO's own errors, not instead of them.
    expect((await fieldsOf('{"rec":1,"valueOf":1}')).sort()).toEqual(['rec: rec must be an object', 'valueOf: property valueOf should not exist']);
  });

  it('refuses __proto__ wherever it is and never lets it set a prototype', async () => {
    expect(await fieldsOf('{"rec":{"__proto__":{"polluted":1}}}')).toEqual(['rec.__proto__: The __proto__ key is not allowed.']);
    expect(await fieldsOf('{"rec":{"ok":[{"__proto__":{"polluted":1}}]}}')).toEqual(['rec.ok.0.__proto__: The __proto__ key is not allowed.']);
    expect(await fieldsOf('{"rec":{"toString":{"__proto__":{"polluted":1}}}}')).toEqual(['rec.toString.__proto__: The __proto__ key is not allowed.']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('leaves other input as it was', async () => {
    const body = await run('{"rec":{"a":1,"prototype":2},"inner":{"name":"x"}}');
    expect(body.rec).toEqual({ a: 1, prototype: 2 });
    expect(body.inner).toBeInstanceOf(Inner);
    expect(await fieldsOf('{"rec":{},"bogus":1}')).toEqual(['bogus: property bogus should not exist']);
  });
});
