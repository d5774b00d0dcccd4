import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { ListContentGapsQueryDto, ResolveContentGapDto } from './content-gaps.dto';
import { ContentGapsService } from './content-gaps.service';

/** /api/admin/kb/content-gaps: refused or low-confidence questions, grouped, until resolved. */
@Controller('api/admin/kb/content-gaps')
@RequireRole(...G1_ROLES)
export class ContentGapsController {
  constructor(private readonly gaps: ContentGapsService) {}

  @Get()
  list(@Query() q: ListContentGapsQueryDto, @Req() req: KbRequest) {
    return this.gaps.list(req.kbPrincipal!.tenantId, q);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  resolve(@Param('id') id: string, @Body() body: ResolveContentGapDto, @Req() req: KbRequest) {
    return this.gaps.resolve(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, id, body.note ?? null);
  }
}
