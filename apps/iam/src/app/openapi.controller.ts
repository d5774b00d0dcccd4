import { Controller, Get, Module } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic, ServedOpenApiDocument } from '@platform/runtime';

/**
 * The API's own description, generated from this process's controllers and DTOs, under the
 * management prefix the gateway forwards; public, it holds no data.
 */
@ApiTags('OpenAPI')
@Controller('api/iam')
export class IamOpenApiController {
  constructor(private readonly served: ServedOpenApiDocument) {}

  @Get('openapi.json')
  @ApiPublic()
  @ApiOperation({ summary: 'This document' })
  @ApiOkResponse({ description: 'OpenAPI 3.1 document', schema: { type: 'object' } })
  openapi() {
    return this.served.document();
  }
}

@Module({ controllers: [IamOpenApiController] })
export class IamOpenApiModule {}
