import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { ListAnalysesQueryDto, RunAnalysisDto } from './analyses.dto';
import { AnalysesService } from './analyses.service';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam } from '../../api-docs';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { AnalysisDto, AnalysisSummaryDto } from '../knowledge-responses.dto';

const analysisId = new RecordIdPipe('Analysis');

/** /api/admin/kb/analyses: run a project analysis and read the stored ones. */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb/analyses')
@RequireRole(...G1_ROLES)
export class AnalysesController {
  constructor(private readonly analyses: AnalysesService) {}

  @Post()
  @ApiG1Operation(
    'Runs an analysis of a project and stores it',
    "`coverage`: documents and chunks per folder, the most widespread terms (count set by the analysis settings' `top_terms`), orphan documents (no wikilink in or out; first 100 listed).",
  )
  @ApiData(AnalysisDto, { status: 201, description: 'The analysis' })
  @ApiKnowledgeValidationFailed()
  run(@Body() body: RunAnalysisDto, @Req() req: KbRequest) {
    return this.analyses.run(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, body);
  }

  @Get()
  @ApiG1Operation('Stored analyses, newest first (without their results)')
  @ApiPage(AnalysisSummaryDto)
  @ApiKnowledgeValidationFailed()
  list(@Query() q: ListAnalysesQueryDto, @Req() req: KbRequest) {
    return this.analyses.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  @ApiG1Operation('One analysis with its result')
  @ApiRowIdParam('Analysis id (of the active tenant)')
  @ApiData(AnalysisDto, { description: 'The analysis' })
  @ApiNotFound('analysis')
  get(@Param('id', analysisId) id: string, @Req() req: KbRequest) {
    return this.analyses.get(req.kbPrincipal!.tenantId, id);
  }
}
