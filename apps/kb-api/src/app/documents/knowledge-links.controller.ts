import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed, ErrorBody } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';
import { RelatedDocumentsDto, WikilinkTargetDto } from './dto/document-views.dto';
import { QueryReader } from './query-reader';

/** What `[[slug]]` references point at, and the link graph around documents. */
@ApiTags('Documents')
@ApiSignedIn('A tenant refusal `{error}`')
@Controller('api/kb')
export class KnowledgeLinksController {
  constructor(private readonly catalog: DocumentCatalogService) {}

  @Get('resolve-wikilink')
  @ApiOperation({ summary: 'What a `[[slug]]` reference points at' })
  @ApiQuery({ name: 'project', required: true, schema: { type: 'string', minLength: 1, maxLength: 120 } })
  @ApiQuery({ name: 'slug', required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } })
  @ApiOkResponse({ description: 'The target', type: WikilinkTargetDto })
  @ApiResponse({ status: 404, description: '`Wikilink target not found.`', type: ErrorBody })
  @ApiValidationFailed()
  resolveWikilink(@Query() query: Record<string, unknown>, @Req() req: KbRequest) {
    const read = new QueryReader(query);
    const project = read.text('project', { required: true, max: 120 });
    const slug = read.text('slug', { required: true, max: 200 });
    read.done();
    return this.catalog.resolveWikilink(req.kbPrincipal!.tenantId, project!, slug!);
  }

  /** `?slugs[]=` (at least one) and optional `project_key`. */
  @Get('related')
  @ApiOperation({ summary: 'Graph neighbours of documents (outgoing and incoming links)' })
  @ApiQuery({ name: 'project_key', required: false, schema: { type: 'string', maxLength: 120 } })
  @ApiQuery({
    name: 'slugs[]',
    required: true,
    description: 'The documents (`slugs[]=a&slugs[]=b`; a single `slugs=a` also works)',
    style: 'form',
    explode: true,
    schema: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 200 } },
  })
  @ApiOkResponse({ description: 'Neighbours', type: RelatedDocumentsDto })
  @ApiValidationFailed()
  related(@Query() query: Record<string, unknown>, @Req() req: KbRequest) {
    const read = new QueryReader(query);
    const projectKey = read.text('project_key', { max: 120 });
    const slugs = read.list('slugs', { required: true, maxItems: 50, maxLength: 200 });
    read.done();
    return this.catalog.related(req.kbPrincipal!.tenantId, projectKey, slugs);
  }
}
