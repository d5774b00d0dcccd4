import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { KbHealthQueryDto, ListAdminDocumentsQueryDto, TreeQueryDto } from './inventory.dto';
import { InventoryService } from './inventory.service';
import { ApiAcceptedResponse, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam, ErrorBody } from '../../api-docs';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { AdminDocumentDetailDto, AdminDocumentDto, KbHealthDto, KbTreeDto, ReindexQueuedDto } from '../knowledge-responses.dto';

const documentId = new RecordIdPipe('Document');

/** /api/admin/kb/tree, /health and /documents/*: what the knowledge base holds and what is wrong with it. */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb')
@RequireRole(...G1_ROLES)
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get('tree')
  @ApiG1Operation(
    'Projects → folders (from source paths) → documents, with counts',
    'Counts cover every document; at most 2000 documents are listed (`documents_truncated`). An unknown `project` answers 404.',
  )
  @ApiOkResponse({ description: 'The tree', type: KbTreeDto })
  @ApiNotFound('project')
  @ApiKnowledgeValidationFailed()
  tree(@Query() q: TreeQueryDto, @Req() req: KbRequest) {
    return this.inventory.tree(req.kbPrincipal!.tenantId, q.project || undefined);
  }

  @Get('health')
  @ApiG1Operation(
    'Findings about the knowledge base, each with a count and up to 10 samples',
    "`without_chunks` (indexed, no chunks), `failed_ingests`, `stuck_ingests` (pending longer than `stuck_ingest_minutes`), `duplicate_content` (same content hash), `broken_links` (wikilinks to no live document), `stale_documents` (not indexed for `stale_days`, default the analysis settings' `stale_after_days`).",
  )
  @ApiOkResponse({ description: 'Findings', type: KbHealthDto })
  @ApiKnowledgeValidationFailed()
  health(@Query() q: KbHealthQueryDto, @Req() req: KbRequest) {
    return this.inventory.health(req.kbPrincipal!.tenantId, q.stale_days);
  }

  @Get('documents')
  @ApiG1Operation('Documents across projects, by project and source path', '`search`: case-insensitive "contains".')
  @ApiPage(AdminDocumentDto)
  @ApiKnowledgeValidationFailed()
  documents(@Query() q: ListAdminDocumentsQueryDto, @Req() req: KbRequest) {
    return this.inventory.documents(req.kbPrincipal!.tenantId, q);
  }

  @Get('documents/:id')
  @ApiG1Operation('One document with its chunks (first 500) and its outgoing and incoming wikilinks')
  @ApiRowIdParam('Document id (of the active tenant)')
  @ApiData(AdminDocumentDetailDto, { description: 'The document' })
  @ApiNotFound('document')
  document(@Param('id', documentId) id: string, @Req() req: KbRequest) {
    return this.inventory.document(req.kbPrincipal!.tenantId, id);
  }

  @Post('documents/:id/reindex')
  @ApiG1Operation(
    'Re-dispatches the ingest job for the stored original',
    'The document stays searchable with its current chunks until the new ones swap in. 409 `original_missing` when the stored original is gone.',
  )
  @ApiRowIdParam('Document id (of the active tenant)')
  @ApiAcceptedResponse({ description: 'Queued', type: ReindexQueuedDto })
  @ApiNotFound('document')
  @ApiResponse({ status: 409, description: 'The stored original is gone `{error: "original_missing", message}`', type: ErrorBody })
  @HttpCode(202)
  reindex(@Param('id', documentId) id: string, @Req() req: KbRequest) {
    return this.inventory.reindex(req.kbPrincipal!.tenantId, id);
  }
}
