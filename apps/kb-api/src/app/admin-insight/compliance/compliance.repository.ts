import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page, PageWindow } from '../../admin/pagination';
import { idText, iso, SqlFilter } from '../sql-filter';
import { FilteredPageRepository } from '../filtered-page.repository';
import { ReportKind, ReportListQueryDto } from './compliance.dto';
import { ReportContent } from './report-builders';

export interface ReportMeta {
  id: string;
  kind: ReportKind;
  params: Record<string, unknown>;
  row_count: number;
  created_by: string | null;
  created_at: string;
}

export interface Report extends ReportMeta {
  content: ReportContent;
}

const META = 'id, kind, params, row_count, created_by, created_at';
const meta = (r: Record<string, unknown>): ReportMeta => ({
  id: String(r['id']),
  kind: r['kind'] as ReportKind,
  params: r['params'] as Record<string, unknown>,
  row_count: r['row_count'] as number,
  created_by: idText(r['created_by']),
  created_at: iso(r['created_at'])!,
});

/** kb_compliance_reports, by tenant. */
@Injectable()
export class ComplianceRepository extends FilteredPageRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  async insert(
    tenantId: string,
    kind: ReportKind,
    params: Record<string, unknown>,
    content: ReportContent,
    userId: string | null,
  ): Promise<ReportMeta> {
    const [row] = await this.db.query(
      `INSERT INTO kb_compliance_reports (tenant_id, kind, params, content, row_count, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${META}`,
      [
        tenantId,
        kind,
        JSON.stringify(params),
        JSON.stringify(content),
        content.rows.length,
        userId,
      ],
    );
    return meta(row);
  }

  list(tenantId: string, q: ReportListQueryDto, window: PageWindow): Promise<Page<ReportMeta>> {
    const filter = new SqlFilter('tenant_id', tenantId)
      .add('kind = ?', q.kind)
      .range('created_at', q.from, q.to);
    return this.page({
      columns: META,
      from: 'kb_compliance_reports',
      filter,
      order: 'id DESC',
      window,
      map: meta,
    });
  }

  async find(tenantId: string, id: string): Promise<Report | null> {
    const [row] = await this.db.query(
      `SELECT ${META}, content FROM kb_compliance_reports WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return row ? { ...meta(row), content: row.content } : null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const [, affected] = await this.db.query(
      'DELETE FROM kb_compliance_reports WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return affected > 0;
  }
}
