const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a string holds a UTF-16 surrogate without its pair (JSON's "\udc00" escape): text no
 * encoding can store or send as written. Such a value would be replaced by U+FFFD somewhere on its
 * way, so two different inputs could name one stored thing; fields that identify something refuse it.
 */
export const hasLoneSurrogate = (s: string): boolean => LONE_SURROGATE.test(s);
