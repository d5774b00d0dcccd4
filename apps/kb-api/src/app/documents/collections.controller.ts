import { Controller, Get, Req } from '@nestjs/common';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';

/** The collection picker of the chat filters (`filters.collection_id`). */
@Controller('api/kb/collections')
export class CollectionsController {
  constructor(private readonly catalog: DocumentCatalogService) {}

  @Get()
  list(@Req() req: KbRequest) {
    return this.catalog.collections(req.kbPrincipal!.tenantId);
  }
}
