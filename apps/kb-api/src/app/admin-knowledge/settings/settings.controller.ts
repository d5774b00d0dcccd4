import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { AnalysisSettingsDto, AutowikiSettingsDto, EvidenceTiersDto } from './settings.dto';
import { KnowledgeSettingsService } from './settings.service';

/** /api/admin/kb/{analysis-settings,autowiki-settings,evidence-tiers}: per-tenant settings with defaults. */
@Controller('api/admin/kb')
@RequireRole(...G1_ROLES)
export class KnowledgeSettingsController {
  constructor(private readonly settings: KnowledgeSettingsService) {}

  @Get('analysis-settings')
  analysis(@Req() req: KbRequest) {
    return this.settings.view(req.kbPrincipal!.tenantId, 'analysis');
  }

  @Put('analysis-settings')
  saveAnalysis(@Body() body: AnalysisSettingsDto, @Req() req: KbRequest) {
    return this.settings.save(req.kbPrincipal!.tenantId, 'analysis', body, req.kbPrincipal!.userId);
  }

  @Get('autowiki-settings')
  autowiki(@Req() req: KbRequest) {
    return this.settings.view(req.kbPrincipal!.tenantId, 'autowiki');
  }

  @Put('autowiki-settings')
  saveAutowiki(@Body() body: AutowikiSettingsDto, @Req() req: KbRequest) {
    return this.settings.save(req.kbPrincipal!.tenantId, 'autowiki', body, req.kbPrincipal!.userId);
  }

  @Get('evidence-tiers')
  evidenceTiers(@Req() req: KbRequest) {
    return this.settings.view(req.kbPrincipal!.tenantId, 'evidence_tiers');
  }

  @Put('evidence-tiers')
  saveEvidenceTiers(@Body() body: EvidenceTiersDto, @Req() req: KbRequest) {
    return this.settings.save(req.kbPrincipal!.tenantId, 'evidence_tiers', body, req.kbPrincipal!.userId);
  }
}
