import { Body, Controller, Delete, Get, Param, Patch, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { RenameTagDto } from './curation.dto';
import { TagsService } from './tags.service';

/** /api/admin/kb/tags: the tags of the tenant's documents (the path segment is the URL-encoded tag). */
@Controller('api/admin/kb/tags')
@RequireRole(...G1_ROLES)
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.tags.list(req.kbPrincipal!.tenantId, q);
  }

  @Patch(':tag')
  rename(@Param('tag') tag: string, @Body() body: RenameTagDto, @Req() req: KbRequest) {
    return this.tags.rename(req.kbPrincipal!.tenantId, tag, body.name);
  }

  @Delete(':tag')
  remove(@Param('tag') tag: string, @Req() req: KbRequest) {
    return this.tags.remove(req.kbPrincipal!.tenantId, tag);
  }
}
