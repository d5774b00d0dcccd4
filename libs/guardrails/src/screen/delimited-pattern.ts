/**
 * A Perl-compatible pattern written with its own delimiters and modifiers, e.g. `/ignore\s+all/iu`
 * or `#a/b#i`, compiled to a JS RegExp that means the same thing or refused with a reason.
 */
export interface CompiledPattern {
  /** The JS regular-expression source (extended-mode whitespace and comments removed). */
  source: string;
  /** JS flags; `u` is always on, so PCRE-only syntax fails to compile instead of changing meaning. */
  flags: string;
  regex: RegExp;
}

const BRACKET_PAIRS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const SUPPORTED_MODIFIERS = new Set(['i', 'm', 's', 'u', 'x']);
/** Characters JS accepts escaped in Unicode mode; any other escaped delimiter becomes a literal. */
const JS_SYNTAX_CHARACTERS = new Set([...'^$\\.*+?()[]{}|/']);
const MAX_PATTERN_LENGTH = 20000;

/** Index of the closing delimiter, skipping escapes and (for bracket pairs) nested pairs. */
function closingIndex(pattern: string, open: string, close: string): number {
  let depth = 0;
  for (let i = 1; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (c === close) {
      if (depth === 0) return i;
      depth--;
    } else if (c === open && open !== close) {
      depth++;
    }
  }
  return -1;
}

/** `\<delimiter>` means a literal delimiter; keep the escape only where Unicode-mode JS allows it. */
function unescapeDelimiter(body: string, delimiters: string[]): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      const next = body[i + 1];
      out += delimiters.includes(next) && !JS_SYNTAX_CHARACTERS.has(next) ? next : c + next;
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

const hexEscape = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * The `x` modifier: unescaped whitespace and `#` comments outside character classes are dropped;
 * an escaped space or `#` stays a literal (written as a hex escape, which Unicode mode accepts).
 */
function stripExtended(body: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      const next = body[i + 1];
      out += /[\s#]/.test(next) && next.charCodeAt(0) < 0x80 ? hexEscape(next) : c + next;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // PCRE takes a `]` right after `[` or `[^` as a literal, not the end of the class.
      if (body[i + 1] === '^') out += body[++i];
      if (body[i + 1] === ']') out += body[++i];
    } else if (c === '#') {
      while (i + 1 < body.length && body[i + 1] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/**
 * Parses and compiles a fully delimited pattern. Throws with a reason when the delimiters are
 * wrong, a modifier has no JS meaning (U, D, A, J, n, g…), the body does not compile as a Unicode JS
 * regex (possessive quantifiers, atomic groups, `\A`, `\z`, inline `(?i)`, POSIX classes…), or the
 * pattern matches the empty string (it would block every prompt).
 */
export function compileDelimitedPattern(pattern: string): CompiledPattern {
  if (typeof pattern !== 'string' || pattern.length < 2) {
    throw new Error('must be a delimited pattern such as /…/i');
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new Error(`must be at most ${MAX_PATTERN_LENGTH} characters`);
  }
  const open = pattern[0];
  if (/[\p{L}\p{N}\\\s]/u.test(open) || open.charCodeAt(0) === 0) {
    throw new Error('must start with a delimiter (not a letter, digit, backslash or space)');
  }
  const close = BRACKET_PAIRS[open] ?? open;
  const end = closingIndex(pattern, open, close);
  if (end < 0) throw new Error(`has no closing delimiter ${close}`);
  const modifiers = pattern.slice(end + 1);
  for (const m of modifiers) {
    if (!SUPPORTED_MODIFIERS.has(m)) throw new Error(`uses modifier "${m}", which cannot be honoured`);
  }
  if (new Set(modifiers).size !== modifiers.length) throw new Error('repeats a modifier');

  const body = unescapeDelimiter(pattern.slice(1, end), [open, close]);
  const source = modifiers.includes('x') ? stripExtended(body) : body;
  const flags = [...new Set([...modifiers.replace('x', ''), 'u'])].sort().join('');
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (e) {
    throw new Error(`does not compile: ${(e as Error).message}`);
  }
  if (regex.test('')) throw new Error('matches the empty string, so it would block every prompt');
  return { source, flags, regex };
}
