import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { ListSynonymsQueryDto, SynonymSetDto } from './curation.dto';
import { SynonymsService } from './synonyms.service';

const setId = new RecordIdPipe('Synonym set');

/** /api/admin/kb/synonyms: the tenant's synonym sets, read by retrieval. */
@Controller('api/admin/kb/synonyms')
@RequireRole(...G1_ROLES)
export class SynonymsController {
  constructor(private readonly synonyms: SynonymsService) {}

  @Get()
  list(@Query() q: ListSynonymsQueryDto, @Req() req: KbRequest) {
    return this.synonyms.list(req.kbPrincipal!.tenantId, q);
  }

  @Post()
  create(@Body() body: SynonymSetDto, @Req() req: KbRequest) {
    return this.synonyms.create(req.kbPrincipal!.tenantId, body);
  }

  @Get(':id')
  get(@Param('id', setId) id: string, @Req() req: KbRequest) {
    return this.synonyms.get(req.kbPrincipal!.tenantId, id);
  }

  @Put(':id')
  update(@Param('id', setId) id: string, @Body() body: SynonymSetDto, @Req() req: KbRequest) {
    return this.synonyms.update(req.kbPrincipal!.tenantId, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', setId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.synonyms.remove(req.kbPrincipal!.tenantId, id);
  }
}
