/**
 * Base64 (standard or URL-safe) runs hidden in a prompt, decoded so that the decoded text can be
 * screened too. Only runs that decode to readable UTF-8 count: long ordinary words also consist of
 * base64 characters, so a candidate needs mixed case and a clean, mostly printable decoding.
 */
export interface DecodedBlob {
  /** UTF-16 range of the encoded run in the text that was searched. */
  start: number;
  end: number;
  decoded: string;
}

/** Base64 alphabet, standard and URL-safe; `=` is padding and handled separately. */
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_') BASE64_CHAR[c.charCodeAt(0)] = 1;
const EQUALS = 0x3d;
const MIN_RUN = 16;
const READABLE = /[\p{L}\p{N}\p{P}\p{S}\s]/gu;
const LETTER = /\p{L}/gu;
const MAX_BLOBS = 32;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeReadable(run: string): string | null {
  const unpadded = run.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(unpadded, 'base64'));
  } catch {
    return null;
  }
  const length = [...decoded].length;
  if (length < 6) return null;
  const readable = decoded.match(READABLE)?.length ?? 0;
  const letters = decoded.match(LETTER)?.length ?? 0;
  return readable / length >= 0.9 && letters >= 4 ? decoded : null;
}

const inAlphabet = (c: number) => c < 128 && BASE64_CHAR[c] === 1;

/**
 * Runs of at least 16 base64 characters (plus up to two `=`), found by checking each 16-character
 * window from its right end and skipping past the first character outside the alphabet: on prose
 * this looks at a fraction of the characters (a regex with a 16-character class run, or a plain
 * scan, costs several times more).
 */
function base64Runs(text: string): Array<{ start: number; end: number }> {
  const runs: Array<{ start: number; end: number }> = [];
  const length = text.length;
  let i = 0;
  while (i + MIN_RUN <= length) {
    let j = i + MIN_RUN - 1;
    while (j >= i && inAlphabet(text.charCodeAt(j))) j--;
    if (j >= i) {
      i = j + 1;
      continue;
    }
    let end = i + MIN_RUN;
    while (end < length && inAlphabet(text.charCodeAt(end))) end++;
    pushRun(text, i, end, runs);
    i = end + 1;
  }
  return runs;
}

/** Takes up to two `=` of padding; a run followed by more `=` is not base64. */
function pushRun(text: string, start: number, runEnd: number, runs: Array<{ start: number; end: number }>) {
  let end = runEnd;
  while (end < text.length && end - runEnd < 2 && text.charCodeAt(end) === EQUALS) end++;
  if (end >= text.length || text.charCodeAt(end) !== EQUALS) runs.push({ start, end });
}

/** Readable base64 runs in `text`, in order, at most 32. */
export function findBase64Blobs(text: string): DecodedBlob[] {
  const blobs: DecodedBlob[] = [];
  for (const { start, end } of base64Runs(text)) {
    const run = text.slice(start, end);
    if (!/[a-z]/.test(run) || !/[A-Z]/.test(run)) continue;
    const decoded = decodeReadable(run);
    if (decoded !== null) blobs.push({ start, end, decoded });
    if (blobs.length >= MAX_BLOBS) break;
  }
  return blobs;
}
