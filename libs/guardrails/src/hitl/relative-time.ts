const UNITS: ReadonlyArray<[string, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

function amount(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of UNITS) {
    if (s >= size) {
      const n = Math.floor(s / size);
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return '0 seconds';
}

/** "2 minutes ago" */
export function timeAgo(then: Date, now: Date): string {
  return `${amount((now.getTime() - then.getTime()) / 1000)} ago`;
}

/** "in 28 minutes" */
export function timeUntil(then: Date, now: Date): string {
  return `in ${amount((then.getTime() - now.getTime()) / 1000)}`;
}
