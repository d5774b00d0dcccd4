import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiSignedIn } from '../api-docs/signed-in';
import type { KbRequest } from '../auth/kb-principal';
import { DocumentCatalogService } from './document-catalog.service';
import { CollectionChoicesDto } from './dto/document-views.dto';

/** The collection picker of the chat filters (`filters.collection_id`). */
@ApiTags('Documents')
@Controller('api/kb/collections')
export class CollectionsController {
  constructor(private readonly catalog: DocumentCatalogService) {}

  @Get()
  @ApiOperation({ summary: 'The collection picker of the chat filters, by name' })
  @ApiOkResponse({ description: 'Collections', type: CollectionChoicesDto })
  @ApiSignedIn('A tenant refusal `{error}`')
  list(@Req() req: KbRequest) {
    return this.catalog.collections(req.kbPrincipal!.tenantId);
  }
}
