import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { MergeConceptDto } from './autowiki.dto';
import { AutowikiService } from './autowiki.service';

const conceptId = new RecordIdPipe('Concept');
const pageId = new RecordIdPipe('Wiki page');

/** /api/admin/kb/{wiki-build,wiki-pages,concepts}: the auto-wiki's operations. */
@Controller('api/admin/kb')
@RequireRole(...G1_ROLES)
export class AutowikiController {
  constructor(private readonly wiki: AutowikiService) {}

  @Post('wiki-build')
  @HttpCode(200)
  build(@Req() req: KbRequest) {
    return this.wiki.build(req.kbPrincipal!.tenantId);
  }

  @Get('wiki-pages')
  pages(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.wiki.wikiPages(req.kbPrincipal!.tenantId, q);
  }

  @Get('wiki-pages/:id')
  page(@Param('id', pageId) id: string, @Req() req: KbRequest) {
    return this.wiki.wikiPage(req.kbPrincipal!.tenantId, id);
  }

  @Get('concepts')
  concepts(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.wiki.concepts(req.kbPrincipal!.tenantId, q);
  }

  @Get('concepts/:id')
  concept(@Param('id', conceptId) id: string, @Req() req: KbRequest) {
    return this.wiki.concept(req.kbPrincipal!.tenantId, id);
  }

  @Post('concepts/:id/merge')
  @HttpCode(200)
  merge(@Param('id', conceptId) id: string, @Body() body: MergeConceptDto, @Req() req: KbRequest) {
    return this.wiki.merge(req.kbPrincipal!.tenantId, id, body.into);
  }

  @Delete('concepts/:id')
  @HttpCode(204)
  async remove(@Param('id', conceptId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.wiki.remove(req.kbPrincipal!.tenantId, id);
  }
}
