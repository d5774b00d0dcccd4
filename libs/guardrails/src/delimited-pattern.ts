/** A PCRE-style pattern written with its own delimiters and flags, e.g. `/ignore\s+previous/iu` or `#…#i`. */
export interface CompiledPattern {
  source: string;
  /** JS flags; `u` is always on so PCRE-only syntax fails to compile instead of changing meaning. */
  flags: string;
  regex: RegExp;
}

const BRACKETS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const SUPPORTED_MODIFIERS = new Set(['i', 'm', 's', 'u', 'x']);

/** `x` (extended): unescaped whitespace and `#` comments outside character classes are dropped. */
function stripExtended(body: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      out += c + (body[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    if (!inClass && /\s/.test(c)) continue;
    if (!inClass && c === '#') {
      while (i < body.length && body[i] !== '\n') i++;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * Parses and compiles a fully delimited pattern. Throws with a reason when the delimiters are
 * wrong, a modifier has no JS meaning (U, D, A, J, …) or the body does not compile as a Unicode
 * JS regex (possessive quantifiers, atomic groups, `\A`, inline `(?i)`…).
 */
export function compileDelimitedPattern(pattern: string): CompiledPattern {
  if (typeof pattern !== 'string' || pattern.length < 2) throw new Error('must be a delimited pattern such as /…/i');
  const open = pattern[0];
  if (/[A-Za-z0-9\\\s]/.test(open)) throw new Error('must start with a delimiter (not alphanumeric, backslash or space)');
  const close = BRACKETS[open] ?? open;
  const end = pattern.lastIndexOf(close);
  if (end <= 0) throw new Error(`has no closing delimiter ${close}`);
  const body = pattern.slice(1, end);
  const modifiers = pattern.slice(end + 1);
  for (const m of modifiers) {
    if (!SUPPORTED_MODIFIERS.has(m)) throw new Error(`uses modifier "${m}", which cannot be honoured`);
  }
  if (new Set(modifiers).size !== modifiers.length) throw new Error('repeats a modifier');
  const source = modifiers.includes('x') ? stripExtended(body) : body;
  const flags = [...new Set([...modifiers.replace('x', ''), 'u'])].sort().join('');
  try {
    return { source, flags, regex: new RegExp(source, flags) };
  } catch (e) {
    throw new Error(`does not compile: ${(e as Error).message}`);
  }
}
