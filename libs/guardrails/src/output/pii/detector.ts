/** A PII finding: where it is and which detector found it. */
export interface PiiFinding {
  detector: string;
  start: number;
  end: number;
}

/**
 * A named PII detector. Detectors run on untrusted model output in the caller's thread, so their
 * patterns use bounded quantifiers and anchor candidates at token starts (linear time); checksums
 * (mod-97, Luhn, CIN, VAT) run only on candidates.
 */
export interface PiiDetector {
  name: string;
  find(text: string): PiiFinding[];
  /**
   * A cheap test every text holding a finding passes (a character every finding contains): findPii
   * does not scan a text that fails it. Most output (titles, snippets) holds no "@", say, and a scan
   * with look-behinds over Unicode classes costs far more than a search for one character. A
   * detector built from another with a different `find` must not carry this over unchecked.
   */
  mayMatch?(text: string): boolean;
}

/** Runs `candidate` over `text` and keeps matches that `valid` accepts (given the matched text). */
export function regexDetector(
  name: string,
  candidate: RegExp,
  valid: (match: string) => boolean = () => true,
  mayMatch?: (text: string) => boolean,
): PiiDetector {
  if (!candidate.global) throw new Error(`detector ${name} needs a global regex`);
  return {
    name,
    mayMatch,
    find(text) {
      const findings: PiiFinding[] = [];
      for (const m of text.matchAll(candidate)) {
        if (valid(m[0])) findings.push({ detector: name, start: m.index!, end: m.index! + m[0].length });
      }
      return findings;
    },
  };
}

export const digitsOf = (s: string): string => s.replace(/\D/g, '');

/** Whether `text` holds an ASCII digit: every match of the number-based detectors does. */
export const hasDigit = (text: string): boolean => /\d/.test(text);

/** Luhn checksum over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}
