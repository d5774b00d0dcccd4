import { ValidationFailedError } from '@platform/observability';
import { loneSurrogateField, WellFormedTextPipe } from './well-formed-text.pipe';

describe('WellFormedTextPipe', () => {
  const pipe = new WellFormedTextPipe();
  const body = { type: 'body' } as const;

  it('names the first key or value holding a lone surrogate, at any depth', () => {
    expect(loneSurrogateField({ a: ['ok', { b: 'x\uDC00' }] }, 'body')).toBe('body.a.1.b');
    expect(loneSurrogateField({ ['k\uD800']: 'v' }, 'body')).toBe('body.k\uFFFD');
    expect(loneSurrogateField({ low: '\uDE00\uD83D' }, 'body')).toBe('body.low');
  });

  it('passes paired surrogates, other types and what is not a body', () => {
    expect(loneSurrogateField({ smile: 'a \uD83D\uDE00', n: 1, t: true, z: null }, 'body')).toBeUndefined();
    const query = { q: '\uD800' };
    expect(pipe.transform(query, { type: 'query' })).toBe(query);
  });

  it('refuses a body with a ValidationFailedError naming the field', () => {
    expect(() => pipe.transform({ name: '\uD800' }, body)).toThrow(ValidationFailedError);
    try {
      pipe.transform({ name: '\uD800' }, body);
    } catch (e) {
      expect((e as ValidationFailedError).errors).toEqual([{ field: 'body.name', message: expect.stringContaining('lone UTF-16 surrogate') }]);
    }
  });
});
