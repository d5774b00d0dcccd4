import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { CollectionsService } from './collections.service';
import { CollectionMembersDto, CreateCollectionDto, UpdateCollectionDto } from './curation.dto';

const collectionId = new RecordIdPipe('Collection');

/** /api/admin/kb/collections: admin CRUD (GET /api/kb/collections stays the chat filter's picker). */
@Controller('api/admin/kb/collections')
@RequireRole(...G1_ROLES)
export class AdminCollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.collections.list(req.kbPrincipal!.tenantId, q);
  }

  @Post()
  create(@Body() body: CreateCollectionDto, @Req() req: KbRequest) {
    return this.collections.create(req.kbPrincipal!.tenantId, body);
  }

  @Get(':id')
  get(@Param('id', collectionId) id: string, @Req() req: KbRequest) {
    return this.collections.get(req.kbPrincipal!.tenantId, id);
  }

  @Patch(':id')
  update(@Param('id', collectionId) id: string, @Body() body: UpdateCollectionDto, @Req() req: KbRequest) {
    return this.collections.update(req.kbPrincipal!.tenantId, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', collectionId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.collections.remove(req.kbPrincipal!.tenantId, id);
  }

  @Post(':id/documents')
  @HttpCode(200)
  members(@Param('id', collectionId) id: string, @Body() body: CollectionMembersDto, @Req() req: KbRequest) {
    return this.collections.changeMembers(req.kbPrincipal!.tenantId, id, body);
  }
}
