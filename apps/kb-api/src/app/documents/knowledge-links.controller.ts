import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed, ErrorBody } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';
import { RelatedDocumentsQuery, WikilinkQuery } from './dto/document-queries.dto';
import { RelatedDocumentsDto, WikilinkTargetDto } from './dto/document-views.dto';

/** What `[[slug]]` references point at, and the link graph around documents. */
@ApiTags('Documents')
@ApiSignedIn('A tenant refusal `{error}`')
@Controller('api/kb')
export class KnowledgeLinksController {
  constructor(private readonly catalog: DocumentCatalogService) {}

  @Get('resolve-wikilink')
  @ApiOperation({ summary: 'What a `[[slug]]` reference points at' })
  @ApiOkResponse({ description: 'The target', type: WikilinkTargetDto })
  @ApiResponse({ status: 404, description: '`Wikilink target not found.`', type: ErrorBody })
  @ApiValidationFailed()
  resolveWikilink(@Query() query: WikilinkQuery, @Req() req: KbRequest) {
    return this.catalog.resolveWikilink(req.kbPrincipal!.tenantId, query.project, query.slug);
  }

  /** `?slugs[]=` (at least one) and optional `project_key`. */
  @Get('related')
  @ApiOperation({ summary: 'Graph neighbours of documents (outgoing and incoming links)' })
  @ApiOkResponse({ description: 'Neighbours', type: RelatedDocumentsDto })
  @ApiValidationFailed()
  related(@Query() query: RelatedDocumentsQuery, @Req() req: KbRequest) {
    return this.catalog.related(req.kbPrincipal!.tenantId, query.project_key, [...new Set(query.slugs)]);
  }
}
