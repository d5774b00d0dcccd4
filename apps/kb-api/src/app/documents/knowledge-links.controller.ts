import { Controller, Get, Query, Req } from '@nestjs/common';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';
import { QueryReader } from './query-reader';

/** What `[[slug]]` references point at, and the link graph around documents. */
@Controller('api/kb')
export class KnowledgeLinksController {
  constructor(private readonly catalog: DocumentCatalogService) {}

  @Get('resolve-wikilink')
  resolveWikilink(@Query() query: Record<string, unknown>, @Req() req: KbRequest) {
    const read = new QueryReader(query);
    const project = read.text('project', { required: true, max: 120 });
    const slug = read.text('slug', { required: true, max: 200 });
    read.done();
    return this.catalog.resolveWikilink(req.kbPrincipal!.tenantId, project!, slug!);
  }

  /** `?slugs[]=` (at least one) and optional `project_key`. */
  @Get('related')
  related(@Query() query: Record<string, unknown>, @Req() req: KbRequest) {
    const read = new QueryReader(query);
    const projectKey = read.text('project_key', { max: 120 });
    const slugs = read.list('slugs', { required: true, maxItems: 50, maxLength: 200 });
    read.done();
    return this.catalog.related(req.kbPrincipal!.tenantId, projectKey, slugs);
  }
}
