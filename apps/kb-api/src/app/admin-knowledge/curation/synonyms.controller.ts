import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { ListSynonymsQueryDto, SynonymSetDto } from './curation.dto';
import { SynonymsService } from './synonyms.service';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam } from '../../api-docs';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { SynonymSetViewDto } from '../knowledge-responses.dto';

const setId = new RecordIdPipe('Synonym set');

/** /api/admin/kb/synonyms: the tenant's synonym sets, read by retrieval. */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb/synonyms')
@RequireRole(...G1_ROLES)
export class SynonymsController {
  constructor(private readonly synonyms: SynonymsService) {}

  @Get()
  @ApiG1Operation('Synonym sets', '`search`: a term contains it.')
  @ApiPage(SynonymSetViewDto)
  @ApiKnowledgeValidationFailed()
  list(@Query() q: ListSynonymsQueryDto, @Req() req: KbRequest) {
    return this.synonyms.list(req.kbPrincipal!.tenantId, q);
  }

  @Post()
  @ApiG1Operation(
    'Creates a synonym set used by retrieval at once',
    'Terms are trimmed, lower-cased and de-duplicated; at least two must remain and each must hold a searchable word. A question word equal to a one-word member is searched as that word OR every other member (several words: a phrase). A set with a project applies when the question is not filtered to other projects. At most 1000 sets per tenant.',
  )
  @ApiData(SynonymSetViewDto, { status: 201, description: 'Created' })
  @ApiKnowledgeValidationFailed()
  create(@Body() body: SynonymSetDto, @Req() req: KbRequest) {
    return this.synonyms.create(req.kbPrincipal!.tenantId, body);
  }

  @Get(':id')
  @ApiG1Operation('One synonym set')
  @ApiRowIdParam('Synonym set id (of the active tenant)')
  @ApiData(SynonymSetViewDto, { description: 'The set' })
  @ApiNotFound('synonym set')
  get(@Param('id', setId) id: string, @Req() req: KbRequest) {
    return this.synonyms.get(req.kbPrincipal!.tenantId, id);
  }

  @Put(':id')
  @ApiG1Operation('Replaces a synonym set')
  @ApiRowIdParam('Synonym set id (of the active tenant)')
  @ApiData(SynonymSetViewDto, { description: 'Updated' })
  @ApiNotFound('synonym set')
  @ApiKnowledgeValidationFailed()
  update(@Param('id', setId) id: string, @Body() body: SynonymSetDto, @Req() req: KbRequest) {
    return this.synonyms.update(req.kbPrincipal!.tenantId, id, body);
  }

  @Delete(':id')
  @ApiG1Operation('Deletes a synonym set')
  @ApiRowIdParam('Synonym set id (of the active tenant)')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFound('synonym set')
  @HttpCode(204)
  async remove(@Param('id', setId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.synonyms.remove(req.kbPrincipal!.tenantId, id);
  }
}
