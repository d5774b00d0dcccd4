import { Injectable } from '@nestjs/common';
import { isRowId, Page, pageWindow } from '../../admin/pagination';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { CreateReportDto, ReportListQueryDto } from './compliance.dto';
import { ComplianceRepository, Report, ReportMeta } from './compliance.repository';
import { columnsOf, toCsv } from './csv';
import { ReportBuilders, ReportContent, RETENTION_DEFAULTS } from './report-builders';

const MAX_RETENTION_DAYS = 36500;
const notFound = () => new KbError(404, 'not_found', 'Compliance report not found.');

/** Compliance reports: generated from live data when asked, stored, downloadable as JSON or CSV. */
@Injectable()
export class ComplianceService {
  constructor(
    private readonly reports: ComplianceRepository,
    private readonly builders: ReportBuilders,
  ) {}

  async generate(p: KbPrincipal, body: CreateReportDto): Promise<ReportMeta> {
    if (body.retention_days !== undefined && body.kind !== 'retention')
      throw new KbValidationError({
        retention_days: ['The retention days field is only for the retention report.'],
      });
    let content: ReportContent;
    let params: Record<string, unknown> = {};
    if (body.kind === 'data-inventory') content = await this.builders.dataInventory(p.tenantId);
    else if (body.kind === 'access-review') content = await this.builders.accessReview(p.tenantId);
    else {
      const days = retentionDays(body.retention_days ?? {});
      params = { retention_days: days };
      content = await this.builders.retention(p.tenantId, days);
    }
    return this.reports.insert(
      p.tenantId,
      body.kind,
      params,
      { ...content, columns: columnsOf(content.rows) },
      p.userId,
    );
  }

  list(tenantId: string, q: ReportListQueryDto): Promise<Page<ReportMeta>> {
    return this.reports.list(tenantId, q, pageWindow(q));
  }

  async show(tenantId: string, id: string): Promise<Report> {
    const report = isRowId(id) ? await this.reports.find(tenantId, id) : null;
    if (!report) throw notFound();
    return report;
  }

  async download(
    tenantId: string,
    id: string,
    format: 'json' | 'csv',
  ): Promise<{ filename: string; contentType: string; body: string }> {
    const report = await this.show(tenantId, id);
    const base = `compliance-${report.kind}-${report.id}`;
    if (format === 'csv')
      return {
        filename: `${base}.csv`,
        contentType: 'text/csv; charset=utf-8',
        body: toCsv(report.content.rows, report.content.columns),
      };
    return {
      filename: `${base}.json`,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(report, null, 2),
    };
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!isRowId(id) || !(await this.reports.delete(tenantId, id))) throw notFound();
  }
}

/** Known tables only, whole days 0..MAX_RETENTION_DAYS; every error names its table. */
function retentionDays(given: Record<string, unknown>): Record<string, number> {
  const errors: Record<string, string[]> = {};
  const days: Record<string, number> = {};
  for (const [table, value] of Object.entries(given)) {
    // Own keys only: a table named toString or constructor is unknown, not Object.prototype's member.
    if (!Object.hasOwn(RETENTION_DEFAULTS, table))
      errors[`retention_days.${table}`] = [
        `Unknown table ${table} (one of ${Object.keys(RETENTION_DEFAULTS).join(', ')}).`,
      ];
    else if (
      !Number.isInteger(value) ||
      (value as number) < 0 ||
      (value as number) > MAX_RETENTION_DAYS
    )
      errors[`retention_days.${table}`] = [
        `The days must be an integer between 0 and ${MAX_RETENTION_DAYS}.`,
      ];
    else days[table] = value as number;
  }
  if (Object.keys(errors).length) throw new KbValidationError(errors);
  return days;
}
