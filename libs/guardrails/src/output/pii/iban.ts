import { hasDigit, PiiDetector, PiiFinding } from './detector';

/** IBAN lengths by country (ISO 13616 registry). */
const IBAN_LENGTH: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21,
  CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27,
  GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26,
  IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24,
  ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29,
  RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24,
  TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

// Country code, check digits, then alphanumerics in groups (spaced or compact).
const CANDIDATE = /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){11,30}/g;

/** ISO 7064 mod-97: move the first four characters to the end, letters to 10–35, remainder 1. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const c of rearranged) {
    const code = c.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/**
 * IBANs, spaced or compact, checked against the country's length and mod-97. A candidate can run on
 * into following words ("IT60 X054 … AND"), so exactly the country's length is taken from it.
 */
export const ibanDetector: PiiDetector = {
  name: 'iban',
  // Every IBAN has its check digits.
  mayMatch: hasDigit,
  find(text) {
    const findings: PiiFinding[] = [];
    const candidate = new RegExp(CANDIDATE.source, 'g');
    let m: RegExpExecArray | null;
    while ((m = candidate.exec(text)) !== null) {
      const length = IBAN_LENGTH[m[0].slice(0, 2).toUpperCase()];
      let compact = '';
      let end = 0;
      while (length && end < m[0].length && compact.length < length) {
        if (m[0][end] !== ' ') compact += m[0][end].toUpperCase();
        end++;
      }
      const next = text[m.index + end] ?? '';
      if (length && compact.length === length && !/[A-Za-z0-9]/.test(next) && ibanChecksumValid(compact)) {
        findings.push({ detector: 'iban', start: m.index, end: m.index + end });
        candidate.lastIndex = m.index + end;
      } else {
        // The candidate may have swallowed the start of a real IBAN: look again from the next token.
        candidate.lastIndex = m.index + 1;
      }
    }
    return findings;
  },
};
