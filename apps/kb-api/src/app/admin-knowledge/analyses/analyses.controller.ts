import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { ListAnalysesQueryDto, RunAnalysisDto } from './analyses.dto';
import { AnalysesService } from './analyses.service';

const analysisId = new RecordIdPipe('Analysis');

/** /api/admin/kb/analyses: run a project analysis and read the stored ones. */
@Controller('api/admin/kb/analyses')
@RequireRole(...G1_ROLES)
export class AnalysesController {
  constructor(private readonly analyses: AnalysesService) {}

  @Post()
  run(@Body() body: RunAnalysisDto, @Req() req: KbRequest) {
    return this.analyses.run(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, body);
  }

  @Get()
  list(@Query() q: ListAnalysesQueryDto, @Req() req: KbRequest) {
    return this.analyses.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  get(@Param('id', analysisId) id: string, @Req() req: KbRequest) {
    return this.analyses.get(req.kbPrincipal!.tenantId, id);
  }
}
