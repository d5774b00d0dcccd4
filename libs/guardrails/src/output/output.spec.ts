import { DEFAULT_SETTINGS } from '../settings/defaults';
import { handleHtml } from './html';
import { markdownLiteral, neutralizeMarkdown, neutralizeMarkdownInFull } from './markdown';
import { addOutputCounts, emptyOutputCounts, totalOf } from './output-counts';
import { handleModelOutput, handleOutputFields, OutputSettings, outputSettingsOf, sanitizeOutputText } from './output-handler';
import { validateStructuredOutput } from './structured-output';
import { classifyUrl } from './url-trust';

const settings = (over: Partial<OutputSettings> = {}): OutputSettings => ({ ...outputSettingsOf(DEFAULT_SETTINGS), ...over });
const md = (text: string, escapeRawHtml = true) => neutralizeMarkdown(text, { trustedHosts: ['example.com'], escapeRawHtml });

describe('HTML handling', () => {
  it('escapes everything in escape mode, counting only tag-like input', () => {
    expect(handleHtml('<script>alert(1)</script>', 'escape', [])).toEqual({ text: '&lt;script&gt;alert(1)&lt;/script&gt;', stripped: true });
    expect(handleHtml('a < b & "c"', 'escape', [])).toEqual({ text: 'a &lt; b &amp; &quot;c&quot;', stripped: false });
  });

  it('keeps allow-listed formatting and drops scripts, handlers, images and untrusted links in allowlist mode', () => {
    expect(handleHtml('<b>bold</b> and <i>it</i>', 'allowlist', [])).toEqual({ text: '<b>bold</b> and <i>it</i>', stripped: false });
    expect(handleHtml('<p onclick="x()">hi<script>alert(1)</script><img src=x onerror=y></p>', 'allowlist', [])).toEqual({ text: '<p>hi</p>', stripped: true });
    expect(handleHtml('<a href="javascript:alert(1)">x</a>', 'allowlist', [])).toEqual({ text: '<a>x</a>', stripped: true });
    expect(handleHtml('<a href="https://evil.test/?q=secret">x</a>', 'allowlist', ['example.com']).text).toBe('<a>x</a>');
    expect(handleHtml('<a href="https://docs.example.com/a">x</a>', 'allowlist', ['example.com'])).toEqual({ text: '<a href="https://docs.example.com/a">x</a>', stripped: false });
  });
});

describe('markdown neutralization', () => {
  it('turns untrusted images into their alt text and keeps trusted or same-origin ones', () => {
    expect(md('![chart](https://evil.test/p.png?d={data}) ![ok](https://cdn.example.com/a.png) ![own](/img/a.png)')).toEqual({
      text: '[image: chart] ![ok](https://cdn.example.com/a.png) ![own](/img/a.png)',
      neutralized: 1,
    });
  });

  it('keeps only the text of links to untrusted hosts or dangerous schemes, entity-encoded ones included', () => {
    expect(md('[docs](https://example.com/a) [evil](https://evil.test/?q=1) [js](javascript:alert(1)) [enc](java&#x73;cript:alert(1)) [rel](/page)')).toEqual({
      text: '[docs](https://example.com/a) evil js enc [rel](/page)',
      neutralized: 3,
    });
  });

  it('handles nested brackets, reference definitions and autolinks', () => {
    expect(md('[a [b] c](https://evil.test)').text).toBe('a [b] c');
    expect(md('[a [b [c]] d](https://evil.test)').text).toBe('[a [b [c]] d]\\(https://evil.test)');
    expect(md('[text][r]\n[r]: https://evil.test/x').text).toBe('[text][r]\n');
    expect(md('<https://evil.test/x> <https://example.com/y>').text).toBe('`https://evil.test/x` <https://example.com/y>');
  });

  it('leaves code alone and escapes raw HTML only when asked', () => {
    const text = 'see `![x](https://evil.test)`\n```\n![y](https://evil.test)\n```\n<b>raw</b>';
    expect(md(text).text).toBe('see `![x](https://evil.test)`\n```\n![y](https://evil.test)\n```\n&lt;b>raw&lt;/b>');
    expect(md(text, false).text).toBe(text);
  });

  it('handles hostile inputs without hanging', () => {
    for (const hostile of ['[' + '('.repeat(50_000), '](' + ' '.repeat(50_000), '`' + ' ``'.repeat(20_000), ']('.repeat(20_000), '!['.repeat(30_000)]) {
      expect(typeof md(hostile).text).toBe('string');
    }
  });
});

describe('markdown neutralization of text without [, ] or <', () => {
  it('is what the full pass makes of it: the text unchanged, nothing counted', () => {
    // Code fences, inline code, emphasis, headings, lists, tables, parentheses, bangs and URLs: all
    // the markdown that needs none of the three characters.
    const pieces = ['```js\n', '```\n', '~~~\n', '`code`', '``', '`', '**bold**', '_it_', '# Heading\n', '- item\n', '1. item\n', '| a | b |\n', '(see https://evil.example/x)', '!', '(', ')', ':', 'https://evil.example/a?b=c', 'mailto:x@evil.example', '> quote\n', '\n', ' ', 'word', '&amp;', '>', '"', "'", '\\', '😀', '\ud800'];
    let seed = 3;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const texts = ['', ...Array.from({ length: 3000 }, () => Array.from({ length: Math.floor(next() * 40) }, () => pieces[Math.floor(next() * pieces.length)]).join(''))];
    for (const escapeRawHtml of [true, false]) {
      for (const text of texts) {
        const options = { trustedHosts: ['example.com'], escapeRawHtml };
        expect(neutralizeMarkdownInFull(text, options)).toEqual({ text, neutralized: 0 });
        expect(neutralizeMarkdown(text, options)).toEqual({ text, neutralized: 0 });
      }
    }
    // One of them present, and the full pass runs: the link goes.
    expect(md('see [x](https://evil.example/)')).toEqual({ text: 'see x', neutralized: 1 });
  });
});

describe('markdownLiteral', () => {
  it('folds breaks and controls to one line and escapes everything that could open markup', () => {
    expect(markdownLiteral(' a\r\n\n## b\u2028c\u0085d\u0000e\t ')).toBe('a \\#\\# b c d e');
    expect(markdownLiteral('[x](javascript:alert(1)) ![i](https://evil.example/p.png) [[slug]]')).toBe('\\[x\\](javascript:alert(1)) !\\[i\\](https\\://evil.example/p.png) \\[\\[slug\\]\\]');
    expect(markdownLiteral('<img src=x onerror=alert(1)> &amp; `c` *e* _u_ ~s~ a|b \\')).toBe('\\<img src=x onerror=alert(1)\\> \\&amp; \\`c\\` \\*e\\* \\_u\\_ \\~s\\~ a\\|b \\\\');
    expect(['- x', '+ x', '=== x', '12. x', '3) x', '> x', 'a - b', 'v1.2'].map(markdownLiteral)).toEqual(['\\- x', '\\+ x', '\\=== x', '12\\. x', '3\\) x', '\\> x', 'a - b', 'v1.2']);
    // Bare URLs GFM would autolink: the colon of a scheme and the dot after www are escaped.
    expect(markdownLiteral('Sign in at https://evil.example/reset or WWW.evil.example, see ftp://x')).toBe('Sign in at https\\://evil.example/reset or WWW\\.evil.example, see ftp\\://x');
    expect(markdownLiteral('_www.evil.example_ (www.a.example) awww.b')).toBe('\\_www\\.evil.example\\_ (www\\.a.example) awww.b');
    // Plain titles stay as they are.
    expect(markdownLiteral('Key rotation (2026): policy, notes!')).toBe('Key rotation (2026): policy, notes!');
  });
});

describe('classifyUrl', () => {
  it.each([
    ['https://example.com/x', 'link', 'trusted'],
    ['https://a.b.example.com', 'image', 'trusted'],
    ['https://example.com.evil.test', 'link', 'untrusted'],
    ['//evil.test/x', 'image', 'untrusted'],
    ['\\\\evil.test', 'link', 'untrusted'],
    ['mailto:a@example.com', 'link', 'trusted'],
    ['mailto:a@example.com', 'image', 'dangerous'],
    ['JaVa\tScRiPt:alert(1)', 'link', 'dangerous'],
    ['data:image/png;base64,AAAA', 'image', 'dangerous'],
    ['/docs/page', 'link', 'relative'],
    ['#section', 'link', 'relative'],
  ] as const)('classifies %j as a %s: %s', (url, kind, verdict) => {
    expect(classifyUrl(url, ['example.com'], kind)).toBe(verdict);
  });
});

describe('structured output', () => {
  const schema = { type: 'object', properties: { answer: { type: 'string' }, score: { type: 'number', maximum: 1 } }, required: ['answer'], additionalProperties: false };

  it('validates JSON text (fenced or not) and values against a schema', () => {
    expect(validateStructuredOutput('{"answer":"yes","score":0.5}', schema)).toEqual({ valid: true, value: { answer: 'yes', score: 0.5 } });
    expect(validateStructuredOutput('```json\n{"answer":"yes"}\n```', schema)).toMatchObject({ valid: true });
    const invalid = validateStructuredOutput({ score: 2, extra: 1 }, schema);
    expect(invalid.valid).toBe(false);
    expect(invalid.valid ? [] : invalid.errors.map((e) => e.keyword).sort()).toEqual(['additionalProperties', 'maximum', 'required']);
  });

  it('reports unparsable output and invalid schemas as failures, never throwing', () => {
    expect(validateStructuredOutput('not json', schema)).toMatchObject({ valid: false, errors: [{ keyword: 'json' }] });
    expect(validateStructuredOutput('{}', { type: 'nonsense' })).toMatchObject({ valid: false, errors: [{ keyword: 'schema' }] });
  });
});

describe('output handler', () => {
  it('runs HTML, markdown and PII handling in order and counts each action', () => {
    const r = sanitizeOutputText('<i>Hi</i> ![x](https://evil.test/a.png) write to bob@mail.example or +39 333 123 4567', settings(), { trustedHosts: [] });
    expect(r.text).toBe('&lt;i&gt;Hi&lt;/i&gt; [image: x] write to [REDACTED:email] or [REDACTED:phone]');
    expect(r.counts).toEqual({ html_stripped: 1, markdown_sanitized: 1, structured_validation_failure: 0, pii_redaction: 2, pii: { by_detector: { email: 1, phone: 1 } } });
  });

  it('honours each toggle, and the hash strategy for PII', () => {
    const text = '<b>x</b> a@b.example';
    expect(sanitizeOutputText(text, settings({ sanitize_html: false, redact_pii: false })).text).toBe('&lt;b>x&lt;/b> a@b.example');
    expect(sanitizeOutputText(text, settings({ sanitize_html: false, neutralize_markdown: false, redact_pii: false })).text).toBe(text);
    expect(sanitizeOutputText('a@b.example', settings(), { pii: { strategy: 'hash', hashSalt: 's' } }).text).toMatch(/^\[hash:[0-9a-f]{16}\]$/);
  });

  it('returns the original in monitor mode but still counts, and does nothing when off', () => {
    const text = 'mail a@b.example';
    expect(handleModelOutput(text, settings({ mode: 'monitor' }))).toMatchObject({ handled: true, enforced: false, text, counts: { pii_redaction: 1 } });
    expect(handleModelOutput(text, settings({ mode: 'off' }))).toMatchObject({ handled: false, text, counts: emptyOutputCounts() });
    expect(handleModelOutput(text, settings({ enabled: false }))).toMatchObject({ handled: false });
  });

  it('validates structured output, counting a failure, and redacts PII inside its strings', () => {
    const schema = { type: 'object', properties: { contact: { type: 'string' } }, required: ['contact'] };
    const ok = handleModelOutput('{"contact":"a@b.example"}', settings(), { schema });
    expect(ok).toMatchObject({ text: '{"contact":"[REDACTED:email]"}', structured: { valid: true, value: { contact: '[REDACTED:email]' } } });
    expect(ok.counts).toMatchObject({ structured_validation_failure: 0, pii_redaction: 1 });
    expect(handleModelOutput('{"other":1}', settings(), { schema }).counts.structured_validation_failure).toBe(1);
  });

  it('handles every string under the named fields of a structured answer as one output, leaving other keys alone', () => {
    const answer = {
      answer: 'See <script>x()</script> or mail ann@example.org',
      source_path: 'desk/ann@example.org.md',
      citations: [{ title: 'Desk <img src=x onerror=y>', chunks: [{ snippet: 'bob@example.org <b>hi</b>', chunk_id: 7 }], headings: ['To ann@example.org'] }],
    };
    const fields = new Set(['answer', 'title', 'snippet', 'headings']);
    const r = handleOutputFields(answer, fields, settings());
    const text = JSON.stringify(r.value);
    expect(text).not.toMatch(/<script|<img|ann@example\.org\b(?!\.md)|bob@example\.org/);
    expect(r.value.source_path).toBe('desk/ann@example.org.md');
    expect(r.value.citations[0].chunks[0].chunk_id).toBe(7);
    expect(r.counts).toMatchObject({ html_stripped: 1, pii_redaction: 3 });
    expect(handleOutputFields(answer, fields, settings({ mode: 'monitor' }))).toMatchObject({ handled: true, enforced: false, value: answer });
    expect(handleOutputFields(answer, fields, settings({ mode: 'off' }))).toMatchObject({ handled: false, value: answer });
  });

  it('keeps timestamps as they are, in and outside the named fields (a walk would turn a Date into {})', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const r = handleOutputFields({ updated_at: at, metadata: { reviewed: at }, title: 'x' }, new Set(['title', 'metadata']), settings());
    expect(JSON.parse(JSON.stringify(r.value))).toEqual({ updated_at: at.toISOString(), metadata: { reviewed: at.toISOString() }, title: 'x' });
  });

  it('adds and totals counts', () => {
    const a = { ...emptyOutputCounts(), html_stripped: 1, pii_redaction: 2, pii: { by_detector: { email: 2 } } };
    const b = { ...emptyOutputCounts(), pii_redaction: 1, pii: { by_detector: { email: 1 } }, structured_validation_failure: 1 };
    expect(addOutputCounts(a, b)).toEqual({ html_stripped: 1, markdown_sanitized: 0, structured_validation_failure: 1, pii_redaction: 3, pii: { by_detector: { email: 3 } } });
    expect(totalOf(addOutputCounts(a, b))).toBe(5);
  });
});
