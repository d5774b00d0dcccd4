import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { MergeConceptDto } from './autowiki.dto';
import { AutowikiService } from './autowiki.service';
import { ApiNoContentResponse, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam, ErrorBody } from '../../api-docs';
import { ApiG1Operation, ApiKnowledgeAdmin, ApiKnowledgeValidationFailed } from '../knowledge-api-docs';
import { ConceptDetailDto, ConceptDto, WikiBuildSummaryDto, WikiPageDetailDto, WikiPageDto } from '../knowledge-responses.dto';

const conceptId = new RecordIdPipe('Concept');
const pageId = new RecordIdPipe('Wiki page');

/** /api/admin/kb/{wiki-build,wiki-pages,concepts}: the auto-wiki's operations. */
@ApiKnowledgeAdmin()
@Controller('api/admin/kb')
@RequireRole(...G1_ROLES)
export class AutowikiController {
  constructor(private readonly wiki: AutowikiService) {}

  @Post('wiki-build')
  @ApiG1Operation(
    'Builds the concepts and their pages from the indexed documents (deterministic, no model)',
    'Concepts: section headings shared by at least `min_document_frequency` documents and words of 4+ letters in at least that many documents but not in more than `max_document_share` percent of them (stopwords, numbers and `exclude_terms` skipped), at most `max_concepts`, most documents first. Merged names stay with their concept; deleted concepts are not rebuilt. 409 `autowiki_disabled` when the settings turn it off.',
  )
  @ApiOkResponse({ description: 'Build summary', type: WikiBuildSummaryDto })
  @ApiResponse({ status: 409, description: 'Disabled `{error: "autowiki_disabled", message}`', type: ErrorBody })
  @HttpCode(200)
  build(@Req() req: KbRequest) {
    return this.wiki.build(req.kbPrincipal!.tenantId);
  }

  @Get('wiki-pages')
  @ApiG1Operation('Generated concept pages, most documents first', '`search`: case-insensitive "contains".')
  @ApiPage(WikiPageDto)
  @ApiKnowledgeValidationFailed()
  pages(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.wiki.wikiPages(req.kbPrincipal!.tenantId, q);
  }

  @Get('wiki-pages/:id')
  @ApiG1Operation('One concept page with its markdown body')
  @ApiRowIdParam('The concept id the page belongs to')
  @ApiData(WikiPageDetailDto, { description: 'The page' })
  @ApiNotFound('wiki page')
  page(@Param('id', pageId) id: string, @Req() req: KbRequest) {
    return this.wiki.wikiPage(req.kbPrincipal!.tenantId, id);
  }

  @Get('concepts')
  @ApiG1Operation('Concepts, most documents first', '`search`: case-insensitive "contains".')
  @ApiPage(ConceptDto)
  @ApiKnowledgeValidationFailed()
  concepts(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.wiki.concepts(req.kbPrincipal!.tenantId, q);
  }

  @Get('concepts/:id')
  @ApiG1Operation('One concept with its documents (and their evidence) and its page')
  @ApiRowIdParam('Concept id (of the active tenant)')
  @ApiData(ConceptDetailDto, { description: 'The concept' })
  @ApiNotFound('concept')
  concept(@Param('id', conceptId) id: string, @Req() req: KbRequest) {
    return this.wiki.concept(req.kbPrincipal!.tenantId, id);
  }

  @Post('concepts/:id/merge')
  @ApiG1Operation('Merges the concept into another: documents and names move to `into`, whose page is rebuilt')
  @ApiRowIdParam('Concept id (of the active tenant)')
  @ApiData(ConceptDto, { description: 'The target concept' })
  @ApiNotFound('concept')
  @ApiKnowledgeValidationFailed()
  @HttpCode(200)
  merge(@Param('id', conceptId) id: string, @Body() body: MergeConceptDto, @Req() req: KbRequest) {
    return this.wiki.merge(req.kbPrincipal!.tenantId, id, body.into);
  }

  @Delete('concepts/:id')
  @ApiG1Operation('Deletes a concept for good (a rebuild does not bring it back)')
  @ApiRowIdParam('Concept id (of the active tenant)')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFound('concept')
  @HttpCode(204)
  async remove(@Param('id', conceptId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.wiki.remove(req.kbPrincipal!.tenantId, id);
  }
}
