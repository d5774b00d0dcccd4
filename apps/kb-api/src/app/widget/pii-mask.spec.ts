import { maskPii } from './pii-mask';

describe('maskPii', () => {
  it('masks e-mail addresses in nested strings and keeps other values', () => {
    const masked = maskPii({ question: 'mail jane.doe@example.com please', list: ['ok', 'x@y.org'], n: 3, flag: true, none: null }) as Record<string, unknown>;
    expect(JSON.stringify(masked)).not.toContain('jane.doe@example.com');
    expect(JSON.stringify(masked)).not.toContain('x@y.org');
    expect(masked['question']).toContain('[REDACTED:');
    expect(masked).toMatchObject({ n: 3, flag: true, none: null });
    expect((masked['list'] as unknown[])[0]).toBe('ok');
  });
});
