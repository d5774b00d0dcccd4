import { csvLine } from '../../csv/csv-field';

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
  let body = csvLine(columns);
  for (const r of rows) body += csvLine(columns.map((c) => r[c]));
  return body;
}
