import { containsPattern } from '../admin/pagination';

/**
 * A WHERE clause built from optional filters, with numbered parameters; always starts with the tenant.
 * Builds text only: the repositories run it (FilteredPageRepository.page).
 */
export class SqlFilter {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  constructor(tenantColumn: string, tenantId: string) {
    this.add(`${tenantColumn} = ?`, tenantId);
  }

  /** `sql` holds one `?` for `value`; an undefined or null value adds nothing. */
  add(sql: string, value: unknown): this {
    if (value === undefined || value === null) return this;
    this.params.push(value);
    this.parts.push(sql.replace('?', `$${this.params.length}`));
    return this;
  }

  /** A condition without parameters (the caller writes it; never user input). */
  when(condition: boolean, sql: string): this {
    if (condition) this.parts.push(sql);
    return this;
  }

  /** Case-insensitive "contains" over the columns (one shared parameter), with %, _ and \\ matched literally. */
  search(columns: string[], search: string | undefined): this {
    const pattern = containsPattern(search);
    if (pattern === null) return this;
    this.params.push(pattern);
    const n = `$${this.params.length}`;
    this.parts.push(`(${columns.map((c) => `${c} ILIKE ${n}`).join(' OR ')})`);
    return this;
  }

  range(column: string, from: string | undefined, to: string | undefined): this {
    return this.add(`${column} >= ?::timestamptz`, from).add(`${column} <= ?::timestamptz`, to);
  }

  get sql(): string {
    return this.parts.join(' AND ');
  }

  /** The placeholder of the next parameter (for LIMIT/OFFSET after the filters). */
  next(offset = 0): string {
    return `$${this.params.length + 1 + offset}`;
  }
}

export const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string).toISOString();
export const idText = (v: unknown): string | null =>
  v === null || v === undefined ? null : String(v);
