import { estimateTokens, parseJsonReply } from './json-reply';

describe('parseJsonReply', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['  {"a":1}\n', { a: 1 }],
    ['```json\n{"a":1}\n```', { a: 1 }],
    ['```\n[1,2]\n```', [1, 2]],
    ['```JSON\n{"a":1}```', { a: 1 }],
    ['Here it is: {"a":1}', null],
    ['', null],
  ])('%j gives %j', (text, expected) => {
    expect(parseJsonReply(text)).toEqual(expected);
  });
});

describe('estimateTokens', () => {
  it('counts about four characters a token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd', 'e')).toBe(2);
  });
});
