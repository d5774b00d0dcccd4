import { isIPv6 } from 'node:net';
import { hasDigit, regexDetector } from './detector';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
// Not part of a longer dotted number (a version string such as 1.2.3.4.5).
const IPV4 = new RegExp(`(?<![\\d.])${OCTET}(?:\\.${OCTET}){3}(?!\\.?\\d)`, 'g');
// Hex groups and colons, bounded, not inside a word; validity (one "::" at most, 8 groups) is left
// to node:net.
const IPV6_CANDIDATE = /(?<![\p{L}\p{N}_:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{0,4}|(?:\d{1,3}\.){3}\d{1,3})(?![\p{L}\p{N}_:])/gu;

export const ipv4Detector = regexDetector('ipv4', IPV4, undefined, (text) => text.includes('.') && hasDigit(text));
/** At least two non-empty groups: "d::" in "std::vector" is a valid address but not one in prose. */
export const ipv6Detector = regexDetector(
  'ipv6',
  IPV6_CANDIDATE,
  (m) => m.split(':').filter(Boolean).length >= 2 && isIPv6(m),
  // A candidate holds two colons at least.
  (text) => text.indexOf(':', text.indexOf(':') + 1) > 0,
);
