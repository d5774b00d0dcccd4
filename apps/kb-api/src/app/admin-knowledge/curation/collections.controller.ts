import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { CollectionsService } from './collections.service';
import { CollectionMembersDto, CreateCollectionDto, UpdateCollectionDto } from './curation.dto';
import { ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam } from '../../api-docs';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { AdminCollectionDto, CollectionMembersChangedDto } from '../knowledge-responses.dto';

const collectionId = new RecordIdPipe('Collection');

/** /api/admin/kb/collections: admin CRUD (GET /api/kb/collections stays the chat filter's picker). */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb/collections')
@RequireRole(...G1_ROLES)
export class AdminCollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get()
  @ApiG1Operation('Collections with their document counts, by name', '`search`: case-insensitive "contains".')
  @ApiPage(AdminCollectionDto)
  @ApiKnowledgeValidationFailed()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.collections.list(req.kbPrincipal!.tenantId, q);
  }

  @Post()
  @ApiG1Operation('Creates a collection (slug from the name when absent)')
  @ApiData(AdminCollectionDto, { status: 201, description: 'Created' })
  @ApiKnowledgeValidationFailed()
  create(@Body() body: CreateCollectionDto, @Req() req: KbRequest) {
    return this.collections.create(req.kbPrincipal!.tenantId, body);
  }

  @Get(':id')
  @ApiG1Operation('One collection')
  @ApiRowIdParam('Collection id (of the active tenant)')
  @ApiData(AdminCollectionDto, { description: 'The collection' })
  @ApiNotFound('collection')
  get(@Param('id', collectionId) id: string, @Req() req: KbRequest) {
    return this.collections.get(req.kbPrincipal!.tenantId, id);
  }

  @Patch(':id')
  @ApiG1Operation('Changes name, slug, description or criteria')
  @ApiRowIdParam('Collection id (of the active tenant)')
  @ApiData(AdminCollectionDto, { description: 'Updated' })
  @ApiNotFound('collection')
  @ApiKnowledgeValidationFailed()
  update(@Param('id', collectionId) id: string, @Body() body: UpdateCollectionDto, @Req() req: KbRequest) {
    return this.collections.update(req.kbPrincipal!.tenantId, id, body);
  }

  @Delete(':id')
  @ApiG1Operation('Deletes a collection and takes it off its documents')
  @ApiRowIdParam('Collection id (of the active tenant)')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFound('collection')
  @HttpCode(204)
  async remove(@Param('id', collectionId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.collections.remove(req.kbPrincipal!.tenantId, id);
  }

  @Post(':id/documents')
  @ApiG1Operation(
    "Adds and removes documents (their metadata.collection_ids, which the chat's collection filter reads)",
    "Unknown and other tenants' document ids are ignored; `added`/`removed` list the documents changed.",
  )
  @ApiRowIdParam('Collection id (of the active tenant)')
  @ApiOkResponse({ description: 'Changed', type: CollectionMembersChangedDto })
  @ApiNotFound('collection')
  @ApiKnowledgeValidationFailed()
  @HttpCode(200)
  members(@Param('id', collectionId) id: string, @Body() body: CollectionMembersDto, @Req() req: KbRequest) {
    return this.collections.changeMembers(req.kbPrincipal!.tenantId, id, body);
  }
}
