import { hasDigit, regexDetector } from './detector';

/** Values of characters in odd positions (1st, 3rd, …) for the codice fiscale check character. */
const ODD: Readonly<Record<string, number>> = {
  '0': 1, '1': 0, '2': 5, '3': 7, '4': 9, '5': 13, '6': 15, '7': 17, '8': 19, '9': 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18, N: 20, O: 11,
  P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};
const evenValue = (c: string) => (c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 65);

/** The CIN check character over the first 15 characters of a codice fiscale. */
export function codiceFiscaleCheck(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += i % 2 === 0 ? ODD[first15[i]] : evenValue(first15[i]);
  return String.fromCharCode(65 + (sum % 26));
}

// Digits may be replaced by L–V (omocodia), so numeric positions accept both.
const D = '[0-9LMNPQRSTUV]';
const CODICE_FISCALE = new RegExp(
  `(?<![A-Za-z0-9])[A-Za-z]{6}${D}{2}[ABCDEHLMPRSTabcdehlmprst]${D}{2}[A-Za-z]${D}{3}[A-Za-z](?![A-Za-z0-9])`,
  'g',
);

/** Italian fiscal codes (codice fiscale), omocodia-aware, with the CIN check character. */
export const codiceFiscaleDetector = regexDetector('codice_fiscale', CODICE_FISCALE, (m) => {
  const upper = m.toUpperCase();
  return codiceFiscaleCheck(upper.slice(0, 15)) === upper[15];
});

/** Partita IVA check: Luhn-style over the first ten digits gives the eleventh. */
export function partitaIvaValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^0{11}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = digits.charCodeAt(i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(10) - 48;
}

const PARTITA_IVA = /(?<![A-Za-z0-9])(?:IT ?)?\d{11}(?!\d)/g;

/** Italian VAT numbers (partita IVA), optionally prefixed with IT, with their check digit. */
export const partitaIvaDetector = regexDetector('p_iva', PARTITA_IVA, (m) => partitaIvaValid(m.replace(/^IT ?/, '')), hasDigit);
