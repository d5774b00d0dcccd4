import { dayOf, isDateInput } from './date-input';

describe('isDateInput', () => {
  it('takes a full date, or a full date-time with its time zone, on the calendar', () => {
    for (const ok of ['2026-11-27', '0001-01-01', '2024-02-29', '2000-02-29', '2026-11-27T22:49Z', '2026-11-27T22:49:12Z', '2026-11-27T22:49:12.182Z', '2026-11-27T22:49:12.123456789+01:00', '2026-11-27T00:00:00-14:00', '9999-12-31T23:59:59+14:00']) {
      expect([ok, isDateInput(ok)]).toEqual([ok, true]);
    }
  });

  it('refuses the reduced and zone-less ISO 8601 forms and what the calendar or Postgres has not', () => {
    const refused = [
      '2026', '2026-11', '2026-W48', '2026-W48-5', '2026-332', '20261127', '2026-11-27T22', '2026-11-27T22:49', '2026-11-27T22:49:12',
      '2026-11-27 22:49Z', '2026-11-27t22:49z', '2026-11-27T22:49+0100', '2026-11-27T22:49+01', '0000-01-01', '2026-13-01', '2026-00-10', '2026-02-29',
      '1900-02-29', '2026-04-31', '2026-11-27T24:00Z', '2026-11-27T23:60Z', '2026-11-27T23:59:60Z', '2026-11-27T22:49+14:01', '2026-11-27T22:49-15:00',
      '2026-11-27T22:49+01:60', '+02026-11-27', ' 2026-11-27', '2026-11-27\n', '', 'yesterday',
    ];
    for (const bad of refused) expect([bad, isDateInput(bad)]).toEqual([bad, false]);
    for (const notString of [20261127, null, undefined, ['2026-11-27'], { date: '2026-11-27' }]) expect(isDateInput(notString)).toBe(false);
  });

  it('names the day as written, as Postgres reads a date from it', () => {
    expect(dayOf('2026-11-27T23:30:00-05:00')).toBe('2026-11-27');
    expect(dayOf('2026-11-27')).toBe('2026-11-27');
  });
});
