/** A cell as text: arrays joined with "; ", objects as JSON, nothing as empty. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v))
    return v
      .map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)))
      .join('; ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with '. */
function csvCell(v: unknown): string {
  let s = cellText(v);
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The union of the rows' keys, in first-seen order. */
export function columnsOf(rows: ReadonlyArray<Record<string, unknown>>): string[] {
  const columns: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return columns;
}

/** Rows to CSV under the given header (by default the union of their keys). */
export function toCsv(
  rows: ReadonlyArray<Record<string, unknown>>,
  columns = columnsOf(rows),
): string {
  const lines = [columns.map(csvCell).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvCell(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
