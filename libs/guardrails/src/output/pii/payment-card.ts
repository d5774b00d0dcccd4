import { digitsOf, hasDigit, luhnValid, regexDetector } from './detector';

// 13 to 19 digits, optionally grouped by single spaces or hyphens, not inside a longer number.
const CARD = /(?<![\d-])[2-6]\d(?:[ -]?\d){11,17}(?!\d)/g;

/** Payment card numbers: 13–19 digits from a card-issuer range (2–6) that pass the Luhn check. */
export const paymentCardDetector = regexDetector('credit_card', CARD, (m) => luhnValid(digitsOf(m)), hasDigit);
