import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { AnalysisSettingsDto, AutowikiSettingsDto, EvidenceTiersDto } from './settings.dto';
import { KnowledgeSettingsService } from './settings.service';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed, ApiSettings } from '../knowledge-api-docs';

/** /api/admin/kb/{analysis-settings,autowiki-settings,evidence-tiers}: per-tenant settings with defaults. */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb')
@RequireRole(...G1_ROLES)
export class KnowledgeSettingsController {
  constructor(private readonly settings: KnowledgeSettingsService) {}

  @Get('analysis-settings')
  @ApiG1Operation("The tenant's analysis settings (defaults when unset)")
  @ApiSettings(AnalysisSettingsDto)
  analysis(@Req() req: KbRequest) {
    return this.settings.view(req.kbPrincipal!.tenantId, 'analysis');
  }

  @Put('analysis-settings')
  @ApiG1Operation('Replaces the analysis settings; absent keys fall back to their defaults')
  @ApiSettings(AnalysisSettingsDto)
  @ApiKnowledgeValidationFailed()
  saveAnalysis(@Body() body: AnalysisSettingsDto, @Req() req: KbRequest) {
    return this.settings.save(req.kbPrincipal!.tenantId, 'analysis', body, req.kbPrincipal!.userId);
  }

  @Get('autowiki-settings')
  @ApiG1Operation("The tenant's auto-wiki settings (defaults when unset)")
  @ApiSettings(AutowikiSettingsDto)
  autowiki(@Req() req: KbRequest) {
    return this.settings.view(req.kbPrincipal!.tenantId, 'autowiki');
  }

  @Put('autowiki-settings')
  @ApiG1Operation('Replaces the auto-wiki settings; absent keys fall back to their defaults')
  @ApiSettings(AutowikiSettingsDto)
  @ApiKnowledgeValidationFailed()
  saveAutowiki(@Body() body: AutowikiSettingsDto, @Req() req: KbRequest) {
    return this.settings.save(req.kbPrincipal!.tenantId, 'autowiki', body, req.kbPrincipal!.userId);
  }

  @Get('evidence-tiers')
  @ApiG1Operation("The tenant's evidence tier map")
  @ApiSettings(EvidenceTiersDto, 'Tier map')
  evidenceTiers(@Req() req: KbRequest) {
    return this.settings.view(req.kbPrincipal!.tenantId, 'evidence_tiers');
  }

  @Put('evidence-tiers')
  @ApiG1Operation(
    'Replaces the tier map',
    'Each tier names exactly one of `source_type` and `path_prefix` (a folder), at most once. A document takes the rank of its longest matching prefix, else of its source type, else `default_rank`; admin document lists and wiki pages show it.',
  )
  @ApiSettings(EvidenceTiersDto, 'Tier map')
  @ApiKnowledgeValidationFailed()
  saveEvidenceTiers(@Body() body: EvidenceTiersDto, @Req() req: KbRequest) {
    return this.settings.save(req.kbPrincipal!.tenantId, 'evidence_tiers', body, req.kbPrincipal!.userId);
  }
}
