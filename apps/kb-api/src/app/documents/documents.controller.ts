import { Body, Controller, Delete, Get, HttpCode, Param, Query, Req } from '@nestjs/common';
import { TokenAbilityGate } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';
import { documentActor } from './document-ownership';
import { DocumentRemovalService } from './document-removal.service';
import { DeleteDocumentsDto } from './dto/delete-documents.dto';
import { QueryReader } from './query-reader';
import { RecordIdPipe } from '../conversations/record-id';

const documentRowId = new RecordIdPipe('Document');

@Controller('api/kb/documents')
export class DocumentsController {
  constructor(
    private readonly catalog: DocumentCatalogService,
    private readonly removal: DocumentRemovalService,
  ) {}

  /** `?q=` (2–120 characters once trimmed) and optional `project_keys[]`. */
  @Get('search')
  @TokenAbilityGate('kb:read')
  search(@Query() query: Record<string, unknown>, @Req() req: KbRequest) {
    const read = new QueryReader(query);
    const text = read.text('q', { required: true, min: 2, max: 120 });
    const projectKeys = read.list('project_keys', { maxItems: 50, maxLength: 120 });
    read.done();
    return this.catalog.search(req.kbPrincipal!.tenantId, text!, projectKeys);
  }

  @Get(':documentId/preview')
  @TokenAbilityGate('kb:read')
  preview(@Param('documentId', documentRowId) documentId: string, @Req() req: KbRequest) {
    return this.catalog.preview(req.kbPrincipal!.tenantId, documentId);
  }

  @Delete()
  @HttpCode(200)
  remove(@Body() body: DeleteDocumentsDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return this.removal.remove(p.tenantId, body, documentActor(p, 'kb.delete.any'));
  }
}
