import { Body, Controller, Delete, Get, HttpCode, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed, ErrorBody } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import { TokenAbilityGate } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';
import { documentActor } from './document-ownership';
import { DocumentRemovalService } from './document-removal.service';
import { DeleteDocumentsDto } from './dto/delete-documents.dto';
import { DocumentSearchQuery } from './dto/document-queries.dto';
import { DocumentMatchesDto, DocumentPreviewDto, RemovalResultDto } from './dto/document-views.dto';
import { RecordIdPipe } from '../conversations/record-id';

const documentRowId = new RecordIdPipe('Document');
const READ_GATE = 'A token without `kb:read` `{error: "token_ability_forbidden"}`, or a tenant refusal';

@ApiTags('Documents')
@Controller('api/kb/documents')
export class DocumentsController {
  constructor(
    private readonly catalog: DocumentCatalogService,
    private readonly removal: DocumentRemovalService,
  ) {}

  /** `?q=` (2–120 characters once trimmed) and optional `project_keys[]`. */
  @Get('search')
  @ApiOperation({ summary: 'Finds documents by title and path (at most 20)', description: '`token.ability:kb:read`.' })
  @ApiOkResponse({ description: 'Matches', type: DocumentMatchesDto })
  @ApiSignedIn(READ_GATE)
  @ApiValidationFailed()
  @TokenAbilityGate('kb:read')
  search(@Query() query: DocumentSearchQuery, @Req() req: KbRequest) {
    return this.catalog.search(req.kbPrincipal!.tenantId, query.q, [...new Set(query.project_keys)]);
  }

  @Get(':documentId/preview')
  @ApiOperation({ summary: "A document's source for preview", description: '`token.ability:kb:read`.' })
  @ApiParam({ name: 'documentId', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } })
  @ApiOkResponse({ description: 'The document', type: DocumentPreviewDto })
  @ApiSignedIn(READ_GATE)
  @ApiResponse({ status: 404, description: "Missing, deleted, or another tenant's document `{error: \"not_found\", message}`", type: ErrorBody })
  @TokenAbilityGate('kb:read')
  preview(@Param('documentId', documentRowId) documentId: string, @Req() req: KbRequest) {
    return this.catalog.preview(req.kbPrincipal!.tenantId, documentId);
  }

  @Delete()
  @ApiOperation({ summary: 'Deletes documents by path (marked deleted, or removed with their file when `force`)' })
  @ApiOkResponse({ description: 'What was deleted and what was missing', type: RemovalResultDto })
  @ApiSignedIn('`{error: "document_forbidden", message}` when the batch would delete a document someone else ingested or nobody owns (a live one; with `force` also one deleted earlier) and the caller lacks kb.delete.any; the message names the documents and nothing is written. Or a tenant refusal `{error}`')
  @ApiValidationFailed()
  @HttpCode(200)
  remove(@Body() body: DeleteDocumentsDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return this.removal.remove(p.tenantId, body, documentActor(p, 'kb.delete.any'));
  }
}
