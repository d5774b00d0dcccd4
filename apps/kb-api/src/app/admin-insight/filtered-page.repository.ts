import { DataSource } from 'typeorm';
import { Page, PageWindow, toPage } from '../admin/pagination';
import { SqlFilter } from './sql-filter';

/**
 * Base of the admin-insight repositories that list filtered pages: one page of
 * `SELECT <columns> FROM <from> WHERE <filter> ORDER BY <order>` and its total, in parallel. The
 * filter always starts with the tenant (SqlFilter's constructor), so a page is one tenant's.
 */
export abstract class FilteredPageRepository {
  protected constructor(protected readonly db: DataSource) {}

  protected async page<T>(q: {
    columns: string;
    from: string;
    filter: SqlFilter;
    order: string;
    window: PageWindow;
    map: (row: Record<string, unknown>) => T;
  }): Promise<Page<T>> {
    const { columns, from, filter, order, window } = q;
    const [rows, [{ total }]] = await Promise.all([
      this.db.query(
        `SELECT ${columns} FROM ${from} WHERE ${filter.sql} ORDER BY ${order} LIMIT ${filter.next()} OFFSET ${filter.next(1)}`,
        [...filter.params, window.perPage, window.offset],
      ),
      this.db.query(`SELECT count(*)::int AS total FROM ${from} WHERE ${filter.sql}`, filter.params),
    ]);
    return toPage((rows as Record<string, unknown>[]).map(q.map), total, window);
  }
}
