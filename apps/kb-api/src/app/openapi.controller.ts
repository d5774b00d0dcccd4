import { Controller, Get, Module } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ServedOpenApiDocument } from '@platform/runtime';
import { ApiNoAuth } from './api-docs';
import { Public } from './auth/gates';

/** The API's own description, generated from this process's controllers and DTOs; public, it holds no data. */
@ApiTags('OpenAPI')
@Controller('api/kb')
export class KbOpenApiController {
  constructor(private readonly served: ServedOpenApiDocument) {}

  @Get('openapi.json')
  @Public()
  @ApiNoAuth()
  @ApiOperation({ summary: 'This document' })
  @ApiOkResponse({ description: 'OpenAPI 3.1 document', schema: { type: 'object' } })
  openapi() {
    return this.served.document();
  }
}

@Module({ controllers: [KbOpenApiController] })
export class KbOpenApiModule {}
