import { Body, Controller, Delete, Get, Param, Patch, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { RenameTagDto } from './curation.dto';
import { TagsService } from './tags.service';
import { ApiOkResponse, ApiParam } from '@nestjs/swagger';
import { ApiNotFound, ApiPage } from '../../api-docs';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { TagCountDto, TagRemovedDto, TagRenamedDto } from '../knowledge-responses.dto';

const ApiTagParam = () => ApiParam({ name: 'tag', description: 'The tag, URL-encoded', schema: { type: 'string', maxLength: 100 } });

/** /api/admin/kb/tags: the tags of the tenant's documents (the path segment is the URL-encoded tag). */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb/tags')
@RequireRole(...G1_ROLES)
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiG1Operation("Tags of the tenant's documents (metadata.tags) with document counts, most used first", '`search`: case-insensitive "contains".')
  @ApiPage(TagCountDto)
  @ApiKnowledgeValidationFailed()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.tags.list(req.kbPrincipal!.tenantId, q);
  }

  @Patch(':tag')
  @ApiG1Operation('Renames a tag on every document (a document already carrying the new name keeps one)')
  @ApiTagParam()
  @ApiOkResponse({ description: 'Renamed', type: TagRenamedDto })
  @ApiNotFound('tag')
  @ApiKnowledgeValidationFailed()
  rename(@Param('tag') tag: string, @Body() body: RenameTagDto, @Req() req: KbRequest) {
    return this.tags.rename(req.kbPrincipal!.tenantId, tag, body.name);
  }

  @Delete(':tag')
  @ApiG1Operation('Removes a tag from every document')
  @ApiTagParam()
  @ApiOkResponse({ description: 'Removed', type: TagRemovedDto })
  @ApiNotFound('tag')
  remove(@Param('tag') tag: string, @Req() req: KbRequest) {
    return this.tags.remove(req.kbPrincipal!.tenantId, tag);
  }
}
