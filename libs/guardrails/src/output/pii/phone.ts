import { digitsOf, hasDigit, regexDetector } from './detector';

// International: + or 00, a country code, then digit groups separated by single spaces, dots,
// hyphens or a parenthesised area code. Each group is a maximal digit run (the lookahead), so a long
// digit string cannot be split into groups in many ways when the match fails.
const INTERNATIONAL = /(?<![\w+])(?:\+|00)[1-9]\d{0,2}(?:[ .-]?\(?\d{1,12}(?!\d)\)?){1,6}/g;
// Italian national numbers: mobile 3xx, landline 0 + area code (not 00, the international prefix),
// with optional single separators.
const ITALIAN = /(?<![\w+])(?:3[1-9]\d|0[1-9]\d{0,2})(?:[ .-]?\d{2,4}){2,3}(?!\d)/g;

const e164Length = (m: string) => {
  const n = digitsOf(m).length - (m.startsWith('00') ? 2 : 0);
  return n >= 9 && n <= 15;
};

/** Phone numbers in international form (+ or 00 prefix, 9–15 digits). */
export const phoneDetector = regexDetector('phone', INTERNATIONAL, e164Length, hasDigit);

/**
 * Italian numbers written nationally: mobile (3xx, 10 digits) or landline (0x, 8–11 digits; the
 * rare shorter ones look too much like other short numbers). An unseparated run of 11 digits is left
 * alone: that is the shape of a VAT number or another id.
 */
export const italianPhoneDetector = regexDetector(
  'phone_it',
  ITALIAN,
  (m) => {
    const n = digitsOf(m).length;
    if (m.startsWith('3')) return n === 10;
    return n >= 8 && n <= (/^\d+$/.test(m) ? 10 : 11);
  },
  hasDigit,
);
