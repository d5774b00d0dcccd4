import { Controller, Get, Header } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Public } from '../auth/gates';
import { WIDGET_EMBED_SCRIPT } from './embed-script';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiNoAuth } from '../api-docs';

const ETAG = `"${createHash('sha256').update(WIDGET_EMBED_SCRIPT).digest('base64url').slice(0, 22)}"`;

/** GET /widget/embed.js: the script third-party pages load (any origin may load it; the API decides who may talk). */
@ApiTags('Widget')
@Controller('widget')
@Public()
export class WidgetEmbedController {
  @Get('embed.js')
  @ApiNoAuth()
  @ApiOperation({
    summary:
      'The embeddable widget script (no dependencies; renders in a Shadow DOM); configure with window.KbWidgetConfig = {apiBase, publicKey}',
  })
  @ApiOkResponse({ description: 'JavaScript', content: { 'text/javascript': { schema: { type: 'string' } } } })
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  @Header('Cross-Origin-Resource-Policy', 'cross-origin')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('ETag', ETAG)
  script(): string {
    return WIDGET_EMBED_SCRIPT;
  }
}
