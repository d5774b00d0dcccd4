export interface NormalizationSettings {
  enabled: boolean;
  nfkc: boolean;
  strip_zero_width: boolean;
  casefold: boolean;
  fold_confusables: boolean;
  decode_base64_blobs: boolean;
}

/** Invisible and format characters used to split trigger words (reference §1.9). */
// Matching these invisible and combining characters one by one is the point here.
// eslint-disable-next-line no-misleading-character-class
const ZERO_WIDTH = /[\u200B-\u200F\u2060-\u206F\uFEFF\u180E\u00AD\u034F\u{E0000}-\u{E007F}]/gu;
// C0/C1 control characters (tab, LF and CR are kept) are stripped on purpose.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Common look-alikes folded to Latin (Cyrillic, Greek, a few symbols). */
const CONFUSABLES: Record<string, string> = {
  а: 'a', в: 'b', с: 'c', е: 'e', һ: 'h', і: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', ѕ: 's', т: 't', у: 'y', х: 'x', ԁ: 'd', ԛ: 'q', ԝ: 'w',
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', І: 'I', Ј: 'J', К: 'K', М: 'M', О: 'O', Р: 'P', Ѕ: 'S', Т: 'T', Х: 'X', Ү: 'Y',
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X', Ζ: 'Z',
  ɑ: 'a', ɡ: 'g', ɩ: 'i', ʀ: 'r', '⁄': '/', '∕': '/',
};

const CONFUSABLE_CHARS = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');

const BASE64_BLOB = /[A-Za-z0-9+/]{16,}={0,2}/g;

/** Decoded text of base64 blobs that decode to mostly printable UTF-8 (so it is screened too). */
function decodedBlobs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.match(BASE64_BLOB) ?? []) {
    if (m.length % 4 !== 0) continue;
    const decoded = Buffer.from(m, 'base64').toString('utf8');
    const printable = [...decoded].filter((c) => /[\p{L}\p{N}\p{P}\p{Zs}]/u.test(c)).length;
    if (decoded.length >= 8 && printable / [...decoded].length > 0.9) out.push(decoded);
  }
  return out;
}

/** The text the screen matches against; each step follows its setting. */
export function normalizePrompt(prompt: string, s: NormalizationSettings): string {
  if (!s.enabled) return prompt;
  const pass = (text: string): string => {
    let t = text;
    if (s.nfkc) t = t.normalize('NFKC');
    if (s.strip_zero_width) t = t.replace(ZERO_WIDTH, '').replace(CONTROLS, '');
    if (s.fold_confusables) t = t.replace(CONFUSABLE_CHARS, (c) => CONFUSABLES[c]);
    if (s.casefold) t = t.toLowerCase();
    return t;
  };
  const base = pass(prompt);
  if (!s.decode_base64_blobs) return base;
  const extra = decodedBlobs(prompt).map(pass);
  return extra.length ? `${base}\n${extra.join('\n')}` : base;
}
