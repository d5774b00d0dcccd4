import { findInParsed, formEncodedProblem, jsonDepthExceeds, jsonNumberUnderflows, MAX_JSON_DEPTH, NUL_MESSAGE, pathSegmentProblem, percentDecodeBytes, textProblem, UTF8_MESSAGE } from './text-checks';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('edge text checks', () => {
  it('percent-decodes to bytes, keeping malformed escapes literal and + as a space in forms', () => {
    expect([...percentDecodeBytes('a%20b%FF', false)]).toEqual([0x61, 0x20, 0x62, 0xff]);
    expect(percentDecodeBytes('a+b', true).toString()).toBe('a b');
    expect(percentDecodeBytes('a+b', false).toString()).toBe('a+b');
    expect(percentDecodeBytes('100%', false).toString()).toBe('100%');
    expect(percentDecodeBytes('%zz%4', false).toString()).toBe('%zz%4');
    expect(percentDecodeBytes('caf%C3%A9', false).toString()).toBe('café');
  });

  it('refuses NUL and invalid UTF-8, accepts any other text', () => {
    expect(textProblem(Buffer.from('ok é 🎉'))).toBeUndefined();
    expect(textProblem(Buffer.from([0x61, 0x00]))).toBe(NUL_MESSAGE);
    expect(textProblem(Buffer.from([0xff]))).toBe(UTF8_MESSAGE);
    expect(textProblem(Buffer.from([0xc3]))).toBe(UTF8_MESSAGE); // truncated sequence
    expect(textProblem(Buffer.from([0xed, 0xa0, 0x80]))).toBe(UTF8_MESSAGE); // encoded surrogate
  });

  it('names the first unusable query parameter or form field', () => {
    expect(formEncodedProblem('q=hello&page=2', 'query')).toBeUndefined();
    expect(formEncodedProblem('page=2&q=a%00b', 'query')).toEqual({ field: 'query.q', message: NUL_MESSAGE });
    expect(formEncodedProblem('q=%FF', 'query')).toEqual({ field: 'query.q', message: UTF8_MESSAGE });
    expect(formEncodedProblem('title=x&na%00me=1', 'body')).toEqual({ field: 'body.na\\0me', message: `name ${NUL_MESSAGE}` });
    expect(formEncodedProblem('flag&&x=%E2%82%AC', 'query')).toBeUndefined();
  });

  it('finds the first unusable path segment', () => {
    expect(pathSegmentProblem('/api/kb/documents/12')).toBeUndefined();
    expect(pathSegmentProblem('/api/kb/documents/1%002')).toEqual({ index: 3, message: NUL_MESSAGE });
    expect(pathSegmentProblem('/a/%FF/b')).toEqual({ index: 1, message: UTF8_MESSAGE });
  });

  it('measures JSON nesting from the bytes, ignoring brackets inside strings and escaped quotes', () => {
    expect(jsonDepthExceeds(Buffer.from(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(nested(5000)))).toBe(true);
    const brackets = JSON.stringify({ text: '['.repeat(1000) + '\\"{{{' + '{'.repeat(1000) });
    expect(jsonDepthExceeds(Buffer.from(brackets))).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(`{"a":"\\\\",${'['.repeat(70)}`))).toBe(true); // the string ends after an escaped backslash
    expect(jsonDepthExceeds(Buffer.from('{"a":"never closed [[[['))).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(nested(3)), 2)).toBe(true);
  });

  it('finds NUL in keys and values of a parsed body, and integers beyond 2^53 - 1', () => {
    expect(findInParsed({ a: ['ok', { title: 'x\u0000' }] }, 'body', '\0')).toEqual({ field: 'body.a.1.title', kind: 'text' });
    expect(findInParsed({ 'k\u0000': 1 }, 'body', '\0')).toEqual({ field: 'body.k\\0', kind: 'text' });
    expect(findInParsed({ page: 1e20 }, 'body', '\0', { unsafeNumbers: true })).toEqual({ field: 'body.page', kind: 'number' });
    expect(findInParsed({ page: 1e20, score: 0.5, max: Number.MAX_SAFE_INTEGER }, 'body', '\0')).toBeUndefined();
    expect(findInParsed({ score: 1.5e-300, n: -2, ok: true, none: null }, 'body', '\0', { unsafeNumbers: true })).toBeUndefined();
  });

  it('finds lone UTF-16 surrogates in keys and values when asked, never a surrogate pair', () => {
    const checks = { loneSurrogates: true };
    expect(findInParsed(JSON.parse('{"a":["ok",{"t":"x\\ud800"}]}'), 'body', '\0', checks)).toEqual({ field: 'body.a.1.t', kind: 'surrogate' });
    expect(findInParsed(JSON.parse('{"a":"\\udc00y"}'), 'body', '\0', checks)).toEqual({ field: 'body.a', kind: 'surrogate' });
    expect(findInParsed(JSON.parse('{"k\\ud800":1}'), 'body', '\0', checks)).toEqual({ field: 'body.k\uFFFD', kind: 'surrogate' });
    expect(findInParsed(JSON.parse('{"e":"\\ud83d\\ude00","k\\ud83d\\ude00":"ok"}'), 'body', '\0', checks)).toBeUndefined();
    expect(findInParsed(JSON.parse('{"t":"x\\ud800"}'), 'body', '\0')).toBeUndefined();
  });

  it('finds numbers beyond a double: overflow to infinity after parsing, underflow to zero in the raw body', () => {
    expect(findInParsed(JSON.parse('{"m":{"n":1e309}}'), 'body', '\0', { unsafeNumbers: true })).toEqual({ field: 'body.m.n', kind: 'range' });
    expect(findInParsed(JSON.parse('[-1e400]'), 'body', '\0', { unsafeNumbers: true })).toEqual({ field: 'body.0', kind: 'range' });
    for (const underflow of ['{"t":1e-400}', '[0, -2.5E-999]', '{"a":"1e-400","b":1.0e-330}']) expect(jsonNumberUnderflows(Buffer.from(underflow))).toBe(true);
    // A written zero, a small but representable number, and the same digits inside strings are fine.
    for (const fine of ['{"t":0e-5}', '{"t":0.000e-400}', '{"t":5e-324,"u":1e-300}', '{"s":"1e-400","k\\"":"x e-1 1e-999"}', '{"ok":true,"no":false,"e":-1}'])
      expect(jsonNumberUnderflows(Buffer.from(fine))).toBe(false);
  });
});
