import { regexDetector } from './detector';

// Local part and labels are bounded and the candidate starts where no local-part character
// precedes it, so a long run of letters without "@" costs one pass, not a quadratic scan.
const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}(?![\p{L}\p{N}-])/gu;

/** Pragmatic e-mail addresses (Unicode letters allowed, as in internationalized addresses). */
export const emailDetector = regexDetector('email', EMAIL, undefined, (text) => text.includes('@'));
