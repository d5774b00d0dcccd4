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
import type { Response } from 'express';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { CreateReportDto, DownloadQueryDto, ReportListQueryDto } from './compliance.dto';
import { ComplianceService } from './compliance.service';
import { RecordIdPipe } from '../../conversations/record-id';

const reportId = new RecordIdPipe('Compliance report');

/** /api/admin/compliance/reports behind G1, in the active tenant. */
@Controller('api/admin/compliance/reports')
@RequireRole(...G1_ROLES)
export class ComplianceController {
  constructor(private readonly reports: ComplianceService) {}

  @Post()
  @HttpCode(201)
  async generate(@Body() body: CreateReportDto, @Req() req: KbRequest) {
    return { data: await this.reports.generate(req.kbPrincipal!, body) };
  }

  @Get()
  list(@Query() q: ReportListQueryDto, @Req() req: KbRequest) {
    return this.reports.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  async show(@Param('id', reportId) id: string, @Req() req: KbRequest) {
    return { data: await this.reports.show(req.kbPrincipal!.tenantId, id) };
  }

  @Get(':id/download')
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
  async remove(@Param('id', reportId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.reports.remove(req.kbPrincipal!.tenantId, id);
  }
}
