import { compileDelimitedPattern } from './delimited-pattern';

describe('compileDelimitedPattern', () => {
  it('compiles own delimiters, bracket pairs and supported modifiers, always in Unicode mode', () => {
    expect(compileDelimitedPattern('/ab+c/i')).toMatchObject({ source: 'ab+c', flags: 'iu' });
    expect(compileDelimitedPattern('#a/b#').regex.test('a/b')).toBe(true);
    expect(compileDelimitedPattern('{x}ms').flags).toBe('msu');
    expect(compileDelimitedPattern('(a(b)c)').regex.test('abc')).toBe(true);
    expect(compileDelimitedPattern('{a{2}}').regex.test('aa')).toBe(true);
    expect(compileDelimitedPattern('/foo(?=bar)/iu').regex.test('FOObar')).toBe(true);
    expect(compileDelimitedPattern('/(\\w)\\1/').regex.test('xx')).toBe(true);
  });

  it('treats an escaped delimiter as a literal', () => {
    expect(compileDelimitedPattern('/a\\/b/').regex.test('a/b')).toBe(true);
    expect(compileDelimitedPattern('#a\\#b#').regex.test('a#b')).toBe(true);
    expect(compileDelimitedPattern('~a\\~b~').regex.test('a~b')).toBe(true);
  });

  it('applies x: unescaped whitespace and comments go, escaped ones and class contents stay', () => {
    expect(compileDelimitedPattern('/a b # comment\n c/x').source).toBe('abc');
    const re = compileDelimitedPattern('/a\\ b [ #] \\#/x').regex;
    expect(re.test('a b #')).toBe(true);
    expect(re.test('a b  #')).toBe(false);
  });

  it.each([
    ['abc', /delimiter/],
    ['\\abc\\', /delimiter/],
    [' /a/', /delimiter/],
    ['/abc', /closing delimiter/],
    ['/abc/i/', /modifier "\/"/],
    ['/abc/U', /modifier "U"/],
    ['/abc/g', /modifier "g"/],
    ['/abc/ii', /repeats/],
    ['/a++/', /does not compile/],
    ['/(?>a)/', /does not compile/],
    ['/\\Afoo/', /does not compile/],
    ['/foo\\z/', /does not compile/],
    ['/(?i)foo/', /does not compile/],
    ['/(?P<n>a)/', /does not compile/],
    ['/[[:alpha:]]/', /does not compile/],
    ['/\\pL/', /does not compile/],
    ['/a*/', /empty string/],
    ['/^/m', /empty string/],
    [`/${'a'.repeat(20001)}/`, /at most/],
  ])('refuses %j', (pattern, reason) => {
    expect(() => compileDelimitedPattern(pattern)).toThrow(reason);
  });
});
