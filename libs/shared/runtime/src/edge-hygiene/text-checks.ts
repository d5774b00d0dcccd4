import { isUtf8 } from 'node:buffer';

/** How deep a JSON body may nest (objects and arrays); deeper bodies never reach a parser or validator. */
export const MAX_JSON_DEPTH = 64;

/** A piece of client input no route can use, named as `query.q`, `path.id`, `body.documents.0.title`. */
export interface EdgeProblem {
  field: string;
  message: string;
}

export const NUL_MESSAGE = 'must not contain NUL characters';
export const UTF8_MESSAGE = 'must be valid UTF-8';
export const DEPTH_MESSAGE = `must not nest JSON deeper than ${MAX_JSON_DEPTH} levels`;
export const UNSAFE_NUMBER_MESSAGE = 'must be a number a client can send exactly (an integer of at most 2^53 - 1 in magnitude)';
export const LONE_SURROGATE_MESSAGE = 'must be valid Unicode text (a "\\ud800" escape without its pair is no character)';
export const NUMBER_RANGE_MESSAGE = 'must be a number within the range of a double (1e309 overflows to infinity, 1e-400 underflows to zero)';

const PERCENT = 0x25;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * The bytes a percent-encoded URL component stands for (`+` as a space in form encoding). A `%`
 * not followed by two hex digits stays literal, as Node's query-string decoder keeps it.
 */
export function percentDecodeBytes(component: string, plusIsSpace: boolean): Buffer {
  const raw = Buffer.from(component, 'utf8');
  if (!raw.includes(PERCENT) && !(plusIsSpace && raw.includes(0x2b))) return raw;
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === PERCENT && i + 2 < raw.length) {
      const hi = hexValue(raw[i + 1]!);
      const lo = hexValue(raw[i + 2]!);
      if (hi >= 0 && lo >= 0) {
        out[n++] = hi * 16 + lo;
        i += 2;
        continue;
      }
    }
    out[n++] = plusIsSpace && c === 0x2b ? 0x20 : c;
  }
  return out.subarray(0, n);
}

/** What is wrong with these bytes as text: NUL or invalid UTF-8; undefined when they are fine. */
export function textProblem(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return UTF8_MESSAGE;
  if (bytes.includes(0)) return NUL_MESSAGE;
  return undefined;
}

/** A name for a field taken from client input: decoded leniently and kept short, so it can be echoed. */
function fieldName(rawName: string, plusIsSpace: boolean): string {
  const name = percentDecodeBytes(rawName, plusIsSpace).toString('utf8').replace(/\0/g, '\\0');
  return name.length > 100 ? `${name.slice(0, 100)}…` : name;
}

/**
 * The first unusable key or value of a form-encoded string (a query string or an
 * application/x-www-form-urlencoded body), named `<where>.<key>`.
 */
export function formEncodedProblem(encoded: string, where: 'query' | 'body'): EdgeProblem | undefined {
  if (encoded === '') return undefined;
  for (const pair of encoded.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const field = `${where}.${fieldName(key, true)}`;
    const keyProblem = textProblem(percentDecodeBytes(key, true));
    if (keyProblem) return { field, message: `name ${keyProblem}` };
    if (eq >= 0) {
      const valueProblem = textProblem(percentDecodeBytes(pair.slice(eq + 1), true));
      if (valueProblem) return { field, message: valueProblem };
    }
  }
  return undefined;
}

/** Index (0 = first after the leading slash) and problem of the first unusable segment of a raw URL path. */
export function pathSegmentProblem(rawPath: string): { index: number; message: string } | undefined {
  const segments = rawPath.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const message = textProblem(percentDecodeBytes(segments[i]!, false));
    if (message) return { index: i, message };
  }
  return undefined;
}

/**
 * Whether a JSON text nests objects/arrays deeper than `max`, read from its bytes without parsing:
 * brackets count only outside strings (strings are skipped with indexOf up to their closing quote).
 */
export function jsonDepthExceeds(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      // Find the closing quote: one preceded by an even number of backslashes.
      let j = i;
      for (;;) {
        j = bytes.indexOf(0x22, j + 1);
        if (j < 0) return false; // unterminated string: the parser refuses it as malformed
        let backslashes = 0;
        while (bytes[j - 1 - backslashes] === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A JSON number literal: sign, digits, fraction, exponent. */
const NUMBER_LITERAL = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Whether `needle` occurs in `buf` right after an ASCII digit. */
function hasDigitBefore(buf: Buffer, needle: string): boolean {
  for (let i = buf.indexOf(needle, 1); i >= 0; i = buf.indexOf(needle, i + 1)) {
    if (buf[i - 1] >= 0x30 && buf[i - 1] <= 0x39) return true;
  }
  return false;
}

/**
 * Whether a JSON body (raw bytes) holds a number literal whose value underflows to zero, such as
 * `1e-400` (a non-zero digit written, 0 parsed). JSON.parse reads it as 0 without a word, and no
 * check after parsing can tell it from a written 0. Strings are skipped as the depth check skips them.
 */
export function jsonNumberUnderflows(bytes: Uint8Array): boolean {
  // Underflow needs a digit, then a negative exponent: most bodies have none ("e-mail" is no
  // number) and skip the scan.
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!hasDigitBefore(buf, 'e-') && !hasDigitBefore(buf, 'E-')) return false;
  const text = buf.toString('latin1');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return false;
        let backslashes = 0;
        while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER_LITERAL.lastIndex = i;
      const literal = NUMBER_LITERAL.exec(text)?.[0];
      if (!literal) continue;
      const exponent = literal.search(/[eE]/);
      if (exponent > 0 && Number(literal) === 0 && /[1-9]/.test(literal.slice(0, exponent))) return true;
      i += literal.length - 1;
    }
  }
  return false;
}

/** Dotted path of a field under `parent` (array indexes as numbers: `documents.3.title`). */
const join = (parent: string, key: string | number) => `${parent}.${typeof key === 'string' ? fieldName(key, false) : key}`;

/** What findInParsed looks for besides `needle`: unsafe numbers, lone UTF-16 surrogates. */
export interface ParsedChecks {
  unsafeNumbers?: boolean;
  loneSurrogates?: boolean;
}

export type ParsedFinding = { field: string; kind: 'text' | 'number' | 'range' | 'surrogate' };

/** A string holding a UTF-16 surrogate without its pair (JSON's `"\ud800"` escape): no character of any encoding. */
const hasLoneSurrogate = (s: string) => !(s as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * The first string (key or value) in a parsed body that holds `needle`, or with `unsafeNumbers` an
 * integral number beyond 2^53 - 1 (JSON `1e20` or `99999999999999999999`, which no JS or SQL
 * integer receives exactly) or one that overflowed to infinity (`range`), or with `loneSurrogates`
 * a string holding a lone surrogate (Postgres would store it as U+FFFD, so two inputs could name
 * one stored thing). The depth is bounded by the depth check before parsing.
 */
export function findInParsed(value: unknown, parent: string, needle: string, checks: ParsedChecks = {}): ParsedFinding | undefined {
  if (typeof value === 'string') {
    if (value.includes(needle)) return { field: parent, kind: 'text' };
    return checks.loneSurrogates && hasLoneSurrogate(value) ? { field: parent, kind: 'surrogate' } : undefined;
  }
  if (typeof value === 'number') {
    if (!checks.unsafeNumbers) return undefined;
    // JSON `1e309` parses to Infinity, which JSON.stringify writes back as null.
    if (!Number.isFinite(value)) return { field: parent, kind: 'range' };
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? { field: parent, kind: 'number' } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInParsed(value[i], join(parent, i), needle, checks);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(needle)) return { field: join(parent, k), kind: 'text' };
      // The key is named as it can be shown: its lone surrogates read as U+FFFD.
      if (checks.loneSurrogates && hasLoneSurrogate(k)) return { field: join(parent, k), kind: 'surrogate' };
      const found = findInParsed(v, join(parent, k), needle, checks);
      if (found) return found;
    }
  }
  return undefined;
}
