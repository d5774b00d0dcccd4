import { createHash } from 'node:crypto';
import { PiiDetector, PiiFinding } from './detector';
import { emailDetector } from './email';
import { ibanDetector } from './iban';
import { ipv4Detector, ipv6Detector } from './ip-address';
import { codiceFiscaleDetector, partitaIvaDetector } from './italian-ids';
import { paymentCardDetector } from './payment-card';
import { italianPhoneDetector, phoneDetector } from './phone';

/** The detectors on by default. Order does not matter: overlaps are resolved by position. */
export const DEFAULT_PII_DETECTORS: readonly PiiDetector[] = Object.freeze([
  emailDetector,
  ibanDetector,
  paymentCardDetector,
  codiceFiscaleDetector,
  partitaIvaDetector,
  phoneDetector,
  italianPhoneDetector,
  ipv4Detector,
  ipv6Detector,
]);

export type PiiStrategy = 'mask' | 'hash';

export interface PiiRedactionOptions {
  detectors?: readonly PiiDetector[];
  /** mask: `[REDACTED:<detector>]`; hash: `[hash:<16 hex>]` of the salted value (joinable, not readable). */
  strategy?: PiiStrategy;
  /** Salt for the hash strategy, so hashes cannot be reversed by hashing guesses. */
  hashSalt?: string;
}

export interface PiiRedaction {
  text: string;
  /** Total redactions (the sum of `byDetector`). */
  count: number;
  byDetector: Record<string, number>;
}

/**
 * Every detector's findings in text order, without overlaps (a phone number inside an IBAN): the
 * one starting first wins; at the same start, the longer one.
 */
export function findPii(text: string, detectors: readonly PiiDetector[] = DEFAULT_PII_DETECTORS): PiiFinding[] {
  const findings = detectors.flatMap((d) => (d.mayMatch && !d.mayMatch(text) ? [] : d.find(text)));
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: PiiFinding[] = [];
  let end = -1;
  for (const f of sorted) {
    if (f.start >= end) {
      kept.push(f);
      end = f.end;
    }
  }
  return kept;
}

/** Finds PII with every detector and replaces each finding; counts per detector. */
export function redactPii(text: string, options: PiiRedactionOptions = {}): PiiRedaction {
  const detectors = options.detectors ?? DEFAULT_PII_DETECTORS;
  const findings = findPii(text, detectors);
  const byDetector: Record<string, number> = {};
  let out = '';
  let at = 0;
  for (const f of findings) {
    const value = text.slice(f.start, f.end);
    const replacement =
      options.strategy === 'hash'
        ? `[hash:${createHash('sha256').update(`${options.hashSalt ?? ''}:${value}`).digest('hex').slice(0, 16)}]`
        : `[REDACTED:${f.detector}]`;
    out += text.slice(at, f.start) + replacement;
    at = f.end;
    byDetector[f.detector] = (byDetector[f.detector] ?? 0) + 1;
  }
  return { text: out + text.slice(at), count: findings.length, byDetector };
}
