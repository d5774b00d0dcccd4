/** One CSV field (RFC 4180), with spreadsheet formulas defused: a leading = + - @ becomes text. */
export function csvField(value: string | number | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n']/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (fields: Array<string | number | null | undefined>) => fields.map(csvField).join(',') + '\r\n';
