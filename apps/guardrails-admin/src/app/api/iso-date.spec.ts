import { parseStrictIsoDate } from './iso-date';

const iso = (s: string, endOfDay = false) => parseStrictIsoDate(s, endOfDay)?.toISOString();

describe('parseStrictIsoDate', () => {
  // Date.UTC read years 0–99 as 1900–1999: 0001-01-01 came back as 1901-01-01.
  it.each(['0000', '0001', '0099', '0100', '1969', '9999'])('keeps year %s as written, in every form', (year) => {
    expect(iso(`${year}-01-01`)).toBe(`${year}-01-01T00:00:00.000Z`);
    expect(iso(`${year}-01-02`, true)).toBe(`${year}-01-02T23:59:59.999Z`);
    expect(iso(`${year}-06-15T10:20:30.456Z`)).toBe(`${year}-06-15T10:20:30.456Z`);
    expect(iso(`${year}-12-31T23:59:59Z`)).toBe(`${year}-12-31T23:59:59.000Z`);
    expect(iso(`${year}-07-01T02:00:00+02:00`)).toBe(`${year}-07-01T00:00:00.000Z`);
  });

  it("checks February against the year's own calendar (proleptic Gregorian)", () => {
    // Leap years: 0 (divisible by 400), 4, 96, 1968, 2000; not 1, 99, 100, 1900, 1969, 9999.
    for (const year of ['0000', '0004', '0096', '1968', '2000']) expect(iso(`${year}-02-29`)).toBe(`${year}-02-29T00:00:00.000Z`);
    for (const year of ['0001', '0099', '0100', '1900', '1969', '9999']) expect(iso(`${year}-02-29`)).toBeUndefined();
  });

  it('crosses a year boundary through an offset without reinterpreting the year', () => {
    expect(iso('0001-01-01T00:30:00+01:00')).toBe('0000-12-31T23:30:00.000Z');
    expect(iso('0099-12-31T23:30:00-01:00')).toBe('0100-01-01T00:30:00.000Z');
  });

  it('still refuses what is not a strict ISO date', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '2026-03-01T24:00:00Z', '2026-03-01T10:60:00Z', '2026-03-01T10:00:00', '1-01-01', '+010000-01-01', 'yesterday']) {
      expect(parseStrictIsoDate(bad)).toBeUndefined();
    }
  });
});
