/**
 * CSV for spreadsheets, shared by every CSV kb-api writes (compliance reports, tabular reviews).
 *
 * A cell whose text starts with one of these is run as a formula (or a DDE command) by Excel,
 * LibreOffice or Sheets when the file is opened: = + - @, a tab or a line break, and their
 * full-width forms, which some spreadsheets fold to the ASCII ones.
 */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/u;

/** The text as a spreadsheet will show it and never evaluate it: a formula start is prefixed with '. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A value as cell text: arrays joined with "; ", objects as JSON, nothing as empty. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v))
    return v
      .map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x ?? '')))
      .join('; ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * One CSV field (RFC 4180): the value's final text, whatever its type (a list cell's first item
 * decides how it starts just as a string does), defused, then quoted when it must be.
 */
export function csvField(v: unknown): string {
  const s = defuseFormula(cellText(v));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record, CRLF-terminated. */
export const csvLine = (fields: readonly unknown[]): string => fields.map(csvField).join(',') + '\r\n';
