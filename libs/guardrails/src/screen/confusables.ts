/**
 * Look-alike characters folded to what they imitate before screening (after NFKC, which already
 * folds fullwidth and mathematical letters): Cyrillic, Greek and Armenian letters, Latin small
 * capitals and IPA letters, typographic quotes, dashes and slashes. Matching only: output is never
 * folded.
 */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a', в: 'b', с: 'c', ԁ: 'd', е: 'e', һ: 'h', н: 'h', і: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm',
  о: 'o', р: 'p', ԛ: 'q', ѕ: 's', т: 't', у: 'y', ү: 'y', х: 'x', ԝ: 'w', ѵ: 'v',
  А: 'A', В: 'B', С: 'C', Ԁ: 'D', Е: 'E', Н: 'H', І: 'I', Ј: 'J', К: 'K', Ӏ: 'l', М: 'M', О: 'O',
  Р: 'P', Ԛ: 'Q', Ѕ: 'S', Т: 'T', Ү: 'Y', Х: 'X', Ԝ: 'W',
  // Greek
  α: 'a', β: 'b', ϲ: 'c', ε: 'e', η: 'n', ι: 'i', ϳ: 'j', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't',
  υ: 'u', χ: 'x', γ: 'y', ω: 'w',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X',
  // Armenian
  օ: 'o', ս: 'u', հ: 'h', ո: 'n',
  // Latin small capitals and IPA letters
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ꜰ: 'f', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l',
  ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z',
  ɑ: 'a', ɡ: 'g', ɩ: 'i', ı: 'i',
  // Punctuation: typographic quotes, dashes and slashes
  '‘': "'", '’': "'", '‚': "'", '‛': "'", '′': "'", '´': "'", '`': "'",
  '“': '"', '”': '"', '„': '"', '‟': '"', '″': '"',
  '‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '―': '-', '−': '-',
  '⁄': '/', '∕': '/',
};

const CONFUSABLE_CHARACTER = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');

export function foldConfusables(text: string): string {
  return text.replace(CONFUSABLE_CHARACTER, (c) => CONFUSABLES[c]);
}

const ASCII_CONFUSABLES = Object.keys(CONFUSABLES).filter((c) => c.charCodeAt(0) < 0x80);
const ASCII_CONFUSABLE_CHARACTER = new RegExp(
  `[${ASCII_CONFUSABLES.map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}]`,
  'g',
);

/** `foldConfusables` for text known to be ASCII: one small class instead of the whole table. */
export function foldAsciiConfusables(text: string): string {
  return text.replace(ASCII_CONFUSABLE_CHARACTER, (c) => CONFUSABLES[c]);
}
