import { luhnValid } from './detector';
import { ibanChecksumValid } from './iban';
import { codiceFiscaleCheck, partitaIvaValid } from './italian-ids';
import { DEFAULT_PII_DETECTORS, redactPii } from './pii-redactor';

const found = (text: string) => redactPii(text).byDetector;

describe('PII detectors', () => {
  it.each([
    ['email', 'write to mario.rossi+news@example.co.uk today'],
    ['email', 'unicode: jörg@bücher.example'],
    ['iban', 'IBAN IT60 X054 2811 1010 0000 0123 456, thanks'],
    ['iban', 'pay to DE89370400440532013000'],
    ['iban', 'gb82 west 1234 5698 7654 32'],
    ['credit_card', 'card 4111 1111 1111 1111 exp 12/30'],
    ['credit_card', 'amex 3782-822463-10005'],
    ['codice_fiscale', 'CF RSSMRA85T10A562S'],
    ['codice_fiscale', 'omocodia RSSMRA85T10A56NH'],
    ['p_iva', 'P.IVA 01114601006'],
    ['p_iva', 'VAT IT 12345678903'],
    ['phone', 'call +39 333 123 4567'],
    ['phone', 'or 0049 30 1234567'],
    ['phone_it', 'cell 333 1234567 or 333-123-4567'],
    ['phone_it', 'ufficio 02 1234 5678'],
    ['ipv4', 'server 192.168.1.20 is down'],
    ['ipv6', 'use 2001:db8::1 or fe80::1ff:fe23:4567:890a'],
  ])('%s finds PII in %j', (detector, text) => {
    expect(found(text)[detector]).toBeGreaterThanOrEqual(1);
  });

  it.each([
    'IBAN IT60 X054 2811 1010 0000 0123 457',
    'card 4111 1111 1111 1112',
    'order number 1234567890123456',
    'CF RSSMRA85T10A562T',
    'P.IVA 01114601007',
    'version 1.2.3.4.5 released at 12:30:45',
    'ratio 10:1 and std::vector',
    'no at-sign here, just text',
    'the year 2026 had 365 days',
  ])('finds nothing in %j', (text) => {
    expect(redactPii(text)).toEqual({ text, count: 0, byDetector: {} });
  });

  it('checksums', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(ibanChecksumValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumValid('GB82WEST12345698765433')).toBe(false);
    expect(codiceFiscaleCheck('RSSMRA85T10A562')).toBe('S');
    expect(partitaIvaValid('01114601006')).toBe(true);
    expect(partitaIvaValid('00000000000')).toBe(false);
  });

  it('resolves overlaps: the earlier finding wins, at the same start the longer one', () => {
    const r = redactPii('IBAN DE89370400440532013000 and +39 333 123 4567');
    expect(r.text).toBe('IBAN [REDACTED:iban] and [REDACTED:phone]');
    expect(r.byDetector).toEqual({ iban: 1, phone: 1 });
  });

  it('counts every redaction by detector', () => {
    expect(redactPii('a@x.example, b@y.example, 10.0.0.1')).toMatchObject({ count: 3, byDetector: { email: 2, ipv4: 1 } });
  });

  it("skips a text only where its detector's quick test proves a scan would find nothing", () => {
    // Short random texts over digits, letters, the characters the quick tests look for and whole findings of every kind.
    let seed = 5;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const alphabet = ['0', '1', '4', '9', 'a', 'B', 'f', 'IT', 'x', '@', '.', ':', '+', '-', ' ', ' ', '00', 'DE', 'mail.example', '::', '.com'];
    const pii = ['4111 1111 1111 1111', '+39 333 123 4567', '192.168.1.20', 'ab@cd.example', '2001:db8::1', '2001:db8:0:0:0:0:0:1', 'DE89370400440532013000', '01114601006', 'RSSMRA85T10A562S'];
    let skipped = 0;
    let found = 0;
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + rnd(8) }, () => (rnd(4) === 0 ? ` ${pii[rnd(pii.length)]} ` : alphabet[rnd(alphabet.length)])).join('');
      for (const detector of DEFAULT_PII_DETECTORS) {
        const findings = detector.find(text);
        found += findings.length;
        if (detector.mayMatch && !detector.mayMatch(text)) {
          skipped++;
          expect(findings).toEqual([]);
        }
      }
    }
    // Both kinds of text were met (otherwise this shows nothing).
    expect(Math.min(skipped, found)).toBeGreaterThan(500);
  });

  it('stays linear on hostile inputs', () => {
    for (const hostile of ['a'.repeat(100_000) + '@', '+1 '.repeat(20_000), '1-'.repeat(50_000), 'a.'.repeat(50_000) + '@x', '1:'.repeat(50_000), 'IT60 '.repeat(10_000)]) {
      expect(redactPii(hostile).text.length).toBeGreaterThan(0);
    }
  });
});
