import { nextRun, parseCron } from './cron';

const next = (cron: string, after: string) => nextRun(parseCron(cron), new Date(after))?.toISOString();

describe('cron schedules', () => {
  it('finds the next minute, hour and day a schedule fires (UTC)', () => {
    expect(next('15 * * * *', '2026-11-24T09:20:30Z')).toBe('2026-11-24T10:15:00.000Z');
    expect(next('15 * * * *', '2026-11-24T09:14:59Z')).toBe('2026-11-24T09:15:00.000Z');
    expect(next('30 3 * * *', '2026-11-24T03:30:00Z')).toBe('2026-11-25T03:30:00.000Z');
    expect(next('*/20 * * * *', '2026-11-24T09:41:00Z')).toBe('2026-11-24T10:00:00.000Z');
  });

  it('rolls over months and years and honours weekdays', () => {
    expect(next('0 4 1 * *', '2026-12-15T00:00:00Z')).toBe('2027-01-01T04:00:00.000Z');
    // 2026-11-24 is a Tuesday: the next Sunday is the 29th (7 and 0 both mean Sunday).
    expect(next('0 4 * * 0', '2026-11-24T09:00:00Z')).toBe('2026-11-29T04:00:00.000Z');
    expect(next('0 4 * * 7', '2026-11-24T09:00:00Z')).toBe('2026-11-29T04:00:00.000Z');
    // Both day fields restricted: either matches.
    expect(next('0 0 1 * 5', '2026-11-24T09:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('refuses malformed expressions', () => {
    for (const bad of ['* * * *', '60 * * * *', '5-1 * * * *', 'x * * * *', '*/0 * * * *']) expect(() => parseCron(bad)).toThrow();
  });
});
