import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiDocuments } from './api-documents';
import { REFERENCE_PAGE_CSP, REFERENCE_SCRIPT, REFERENCE_STYLE, renderReferencePage } from './reference-page';
import { swaggerUiAsset } from './swagger-ui-assets';

/**
 * One interactive API reference for frontend teams at /docs: Swagger UI (served from the installed
 * package) over every service's OpenAPI document, each fetched from the service itself and also
 * served at /docs/openapi/<service>.json. A service whose API is switched off is shown as unavailable.
 */
@Controller('docs')
export class ApiDocsController {
  constructor(private readonly documents: ApiDocuments) {}

  @Get('openapi/:file')
  async document(@Param('file') file: string, @Res() res: Response) {
    const source = this.documents.source(file);
    if (!source) throw new NotFoundException(`no OpenAPI document ${file}`);
    const doc = await this.documents.fetch(source);
    if (!doc) throw new NotFoundException(`${source.service} does not serve its OpenAPI document (is its API enabled?)`);
    res.json(doc);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: Response) {
    const asset = swaggerUiAsset(file);
    if (!asset) throw new NotFoundException(`no asset ${file}`);
    res.type(asset.type).setHeader('cache-control', 'public, max-age=86400');
    res.sendFile(asset.file);
  }

  @Get('reference.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  script() {
    return REFERENCE_SCRIPT;
  }

  @Get('docs.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  style() {
    return REFERENCE_STYLE;
  }

  @Get()
  async page(@Res() res: Response) {
    res.type('html').setHeader('content-security-policy', REFERENCE_PAGE_CSP).send(renderReferencePage(await this.documents.all()));
  }
}
