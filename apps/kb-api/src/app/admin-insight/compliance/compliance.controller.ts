import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ApiData, ApiGuarded, ApiNotFound, ApiPage, ApiRowIdParam, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { CreateReportDto, DownloadQueryDto, ReportListQueryDto } from './compliance.dto';
import { ComplianceReportDto, ComplianceReportMetaDto } from './compliance-responses.dto';
import { ComplianceService } from './compliance.service';
import { RETENTION_DEFAULTS } from './report-builders';
import { RecordIdPipe } from '../../conversations/record-id';

const reportId = new RecordIdPipe('Compliance report');
const retentionDefaults = Object.entries(RETENTION_DEFAULTS)
  .map(([table, rule]) => `${table} ${rule.days} d`)
  .join(', ');

/** /api/admin/compliance/reports behind G1, in the active tenant. */
@ApiTags('Admin insight')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/compliance/reports')
@RequireRole(...G1_ROLES)
export class ComplianceController {
  constructor(private readonly reports: ComplianceService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Generates a compliance report from live data and stores it',
    description: `Gate G1 (admin or super-admin in the active tenant). data-inventory: personal data per tenant table and PII detector hits in chat logs. access-review: users, roles, permissions, memberships, tokens with last use. retention: row ages per table and what each retention window would remove (defaults: ${retentionDefaults}).`,
  })
  @ApiData(ComplianceReportMetaDto, { status: 201, description: 'Report (without content)' })
  @ApiValidationFailed()
  async generate(@Body() body: CreateReportDto, @Req() req: KbRequest) {
    return { data: await this.reports.generate(req.kbPrincipal!, body) };
  }

  @Get()
  @ApiOperation({ summary: 'Stored reports, newest first, without content', description: 'Gate G1.' })
  @ApiPage(ComplianceReportMetaDto)
  @ApiValidationFailed()
  list(@Query() q: ReportListQueryDto, @Req() req: KbRequest) {
    return this.reports.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One report with its content', description: 'Gate G1.' })
  @ApiRowIdParam('Report id')
  @ApiData(ComplianceReportDto, { description: 'Report' })
  @ApiNotFound('report')
  async show(@Param('id', reportId) id: string, @Req() req: KbRequest) {
    return { data: await this.reports.show(req.kbPrincipal!.tenantId, id) };
  }

  @Get(':id/download')
  @ApiOperation({ summary: 'The report as an attachment: JSON (the whole report) or CSV (its rows)', description: 'Gate G1.' })
  @ApiRowIdParam('Report id')
  @ApiExtraModels(ComplianceReportDto)
  @ApiOkResponse({
    description: 'Attachment (`content-disposition: attachment; filename="compliance-<kind>-<id>.<format>"`)',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ComplianceReportDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiNotFound('report')
  @ApiValidationFailed()
  async download(
    @Param('id', reportId) id: string,
    @Query() q: DownloadQueryDto,
    @Req() req: KbRequest,
    @Res({ passthrough: true }) res: Response,
  ) {
    const file = await this.reports.download(req.kbPrincipal!.tenantId, id, q.format ?? 'json');
    res.setHeader('content-type', file.contentType);
    res.setHeader('content-disposition', `attachment; filename="${file.filename}"`);
    return file.body;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Deletes a report', description: 'Gate G1.' })
  @ApiRowIdParam('Report id')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFound('report')
  async remove(@Param('id', reportId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.reports.remove(req.kbPrincipal!.tenantId, id);
  }
}
