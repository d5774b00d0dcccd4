/**
 * Readings of a normalized prompt that undo simple encodings attackers use to keep trigger words
 * away from the rules, screened in addition to the prompt itself (like the separator readings):
 * - leetspeak ("1gn0r3 4ll pr3v10u5 1n5truct10n5"): in lines with at least two words that have a
 *   look-alike digit or symbol before a letter, the words mixing them with letters are read as letters;
 * - words cut into syllables ("dis-re-gard pre-vi-ous", "ig.no.re"): in lines with at least two
 *   words of three or more short pieces, the pieces are joined;
 * - hex ("69676e6f7265…") and Morse (".. --. -. --- .-. ."): runs of words that decode to text;
 * - ROT13 and reversed text, in a prompt of at most 4,000 characters that names the transform
 *   ("apply rot13", "reverse this string"): the whole prompt, transformed.
 * Each is gated by a cheap test, and the leetspeak and syllable readings hold only the lines that
 * qualify, so a long benign document (hashes, "e.g.", "sha256") costs the rules little more.
 * Nothing here decides; a reading only gives the rules another text to match.
 */

/** Look-alike digits and symbols and the letters they stand for. */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's' };
/** A word of letters, digits, `@` and `$`. */
const LEET_WORD = /[\p{L}\p{N}@$]+/gu;
const HAS_LETTER = /\p{L}/u;
const HAS_LEET = /[0134578@$]/;
const LEET_CHAR = /[\p{L}\p{N}@$]/u;
/**
 * Where a leetspeak word shows itself: a look-alike digit or symbol followed by a letter ("1g",
 * "0r", "4l"). A digit only at a word's end ("utf8", "sha256", "base64") is how technical text
 * names things, not leetspeak, and does not count.
 */
const LEET_SIGN = /[0134578@$]\p{L}/gu;

/** A word cut into pieces of one to five letters by one kind of separator ("pre-vi-ous", "in.st.ru"). */
const SYLLABLES = /(?<![\p{L}\p{N}])\p{L}{1,5}([-.])\p{L}{1,5}(?:\1\p{L}{1,5})*(?![\p{L}\p{N}])/gu;
/** The same, as a whole word of at least three pieces. */
const THREE_PIECES = /^\p{L}{1,5}([-.])\p{L}{1,5}(?:\1\p{L}{1,5})+$/u;
const SYLLABLE_CHAR = /[\p{L}\p{N}.-]/u;
/** Where such a word shows itself: a piece of one to five letters between two separators. */
const SYLLABLE_SIGN = /\p{L}[-.]\p{L}{1,5}[-.]\p{L}/gu;

/** Cheap pre-checks: eight hex bytes run together or spaced, four Morse letters in a row. */
const MAYBE_HEX = /[0-9a-f]{16}|(?:[0-9a-f]{2} ){7}[0-9a-f]{2}/;
const MAYBE_MORSE = /[.-]{1,6} [.-]{1,6} [.-]{1,6} [.-]{1,6}/;
const HEX_WORD = /^(?:[0-9a-f]{2})+$/;
const MORSE_LETTER = /^[.-]{1,6}$/;
const MIN_HEX_BYTES = 8;
const MORSE: Record<string, string> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i', '.---': 'j',
  '-.-': 'k', '.-..': 'l', '--': 'm', '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r', '...': 's', '-': 't',
  '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z', '-----': '0', '.----': '1', '..---': '2',
  '...--': '3', '....-': '4', '.....': '5', '-....': '6', '--...': '7', '---..': '8', '----.': '9',
};

/** The transforms a prompt must name (any of the screen's languages) before it is read transformed. */
const NAMES_ROT13 = /\brot[- ]?13\b|\bcaesar|\bcäsar|\bcésar/;
// No \b before "à": without the u flag, \b knows ASCII word characters only.
const NAMES_REVERSAL = /\brevers|\bbackwards?\b|\brückwärts|\bumgekehrt|à l'envers|\bal revés|\binvers|\bachterstevoren|\bomgekeerd/;
/** Whole-prompt transforms only for prompts this short: an attack that names them is short, a document is not. */
const MAX_TRANSFORMED_CHARS = 4_000;

const MIN_DECODED_LETTERS = 6;

/**
 * Whether the word at [start, end) is part of a URL, a host name or an e-mail address (after "://",
 * "/", "@" or a dot; before "/", "@" or a dot and a letter), where digits, dots and "@" are the
 * address's own, not an encoding.
 */
function inAddress(text: string, start: number, end: number): boolean {
  const before = text[start - 1];
  if (before === '/' || before === '@' || before === '.' || before === ':') return true;
  const after = text[end];
  return after === '/' || after === '@' || (after === '.' && /\p{L}/u.test(text[end + 1] ?? ''));
}

/**
 * The lines of `text` holding at least `least` words that `qualify`, each rewritten by `rewrite`,
 * or null. Words are found from the matches of `sign` (a global pattern cheap to scan for), each
 * grown to the run of `wordChar` around it: one pass over the text, whatever it holds, and the
 * work per line only where a sign is.
 */
function qualifyingLines(text: string, sign: RegExp, wordChar: RegExp, qualifies: (w: string) => boolean, least: number, rewrite: (line: string) => string): string | null {
  const wordsByLine = new Map<number, Set<number>>();
  let covered = -1;
  for (const m of text.matchAll(sign)) {
    if (m.index <= covered) continue;
    let start = m.index;
    while (start > 0 && wordChar.test(text[start - 1])) start--;
    let end = m.index + m[0].length;
    while (end < text.length && wordChar.test(text[end])) end++;
    covered = end;
    if (inAddress(text, start, end) || !qualifies(text.slice(start, end))) continue;
    const line = text.lastIndexOf('\n', start) + 1;
    const words = wordsByLine.get(line) ?? new Set<number>();
    wordsByLine.set(line, words.add(start));
  }
  const lines: string[] = [];
  for (const [start, words] of wordsByLine) {
    if (words.size < least) continue;
    const end = text.indexOf('\n', start);
    lines.push(rewrite(text.slice(start, end < 0 ? text.length : end)));
  }
  return lines.length ? lines.join('\n') : null;
}

const mixesLeet = (w: string) => HAS_LETTER.test(w) && HAS_LEET.test(w);

function leetReading(text: string): string | null {
  return qualifyingLines(text, LEET_SIGN, LEET_CHAR, mixesLeet, 2, (line) =>
    line.replace(LEET_WORD, (w) => (mixesLeet(w) ? w.replace(/[0134578@$]/g, (c) => LEET[c]) : w)),
  );
}

function syllableReading(text: string): string | null {
  // A sentence's full stop is no piece: "dis-re-gard." is the word "dis-re-gard".
  const threePieces = (w: string) => THREE_PIECES.test(w.replace(/[-.]+$/, ''));
  return qualifyingLines(text, SYLLABLE_SIGN, SYLLABLE_CHAR, threePieces, 2, (line) => line.replace(SYLLABLES, (w) => w.replace(/[-.]/g, '')));
}

/** Decoded text worth screening: printable ASCII and whitespace only, with some letters. */
function textual(decoded: string): string | null {
  // Printable ASCII, tab, LF and CR only: anything else is binary (a hash, a key), not a message.
  if (/[^\t\n\r -~]/.test(decoded)) return null;
  return (decoded.match(/[a-z]/gi)?.length ?? 0) >= MIN_DECODED_LETTERS ? decoded.toLowerCase() : null;
}

/**
 * Runs of whitespace-separated words that all pass `inRun`, each run given to `decode` (null drops
 * it). Scanned word by word, so the cost stays linear in the text whatever it holds.
 */
function wordRuns(text: string, inRun: (w: string) => boolean, decode: (run: string[]) => string | null): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    const decoded = run.length ? decode(run) : null;
    if (decoded !== null) out.push(decoded);
    run = [];
  };
  for (const w of text.split(/\s+/)) {
    if (inRun(w)) run.push(w);
    else flush();
  }
  flush();
  return out;
}

/** Hex: one word of at least eight bytes, or at least eight one-byte words in a row. */
function hexReadings(text: string): string[] {
  if (!MAYBE_HEX.test(text)) return [];
  return wordRuns(
    text,
    (w) => HEX_WORD.test(w),
    (run) => {
      const spaced = run.length >= MIN_HEX_BYTES && run.every((w) => w.length === 2);
      const blobs = spaced ? [run.join('')] : run.filter((w) => w.length >= 2 * MIN_HEX_BYTES);
      const decoded = blobs.map((hex) => textual(Buffer.from(hex, 'hex').toString('latin1'))).filter((t) => t !== null);
      return decoded.length ? decoded.join('\n') : null;
    },
  );
}

/** Morse: letters separated by spaces, words by "/". */
function morseReadings(text: string): string[] {
  if (!MAYBE_MORSE.test(text)) return [];
  return wordRuns(
    text,
    (w) => w === '/' || MORSE_LETTER.test(w),
    (run) => {
      const letters = run.map((code) => (code === '/' ? ' ' : MORSE[code] ?? '?')).join('');
      return !letters.includes('?') && (letters.match(/[a-z]/g)?.length ?? 0) >= MIN_DECODED_LETTERS ? letters : null;
    },
  );
}

const rot13 = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97));

/** The encoded readings of a normalized (casefolded) prompt, in a fixed order; none when nothing qualifies. */
export function encodedReadings(base: string): string[] {
  const readings: string[] = [];
  const leet = leetReading(base);
  if (leet !== null) readings.push(leet);
  const syllables = syllableReading(base);
  if (syllables !== null) readings.push(syllables);
  readings.push(...hexReadings(base), ...morseReadings(base));
  if (base.length <= MAX_TRANSFORMED_CHARS) {
    if (NAMES_ROT13.test(base)) readings.push(rot13(base));
    if (NAMES_REVERSAL.test(base)) readings.push([...base].reverse().join(''));
  }
  return readings;
}
