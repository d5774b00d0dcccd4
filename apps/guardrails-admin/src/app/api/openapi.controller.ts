import { Controller, Get, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic, ServedOpenApiDocument } from '@platform/runtime';
import { GuardrailsEnvelopeFilter } from './envelope';

/** The API's own description, readable without the host middleware (it holds no data). */
@ApiTags('guardrails')
@Controller()
@UseFilters(GuardrailsEnvelopeFilter)
export class GuardrailsOpenApiController {
  constructor(private readonly served: ServedOpenApiDocument) {}

  @Get('openapi.json')
  @ApiPublic()
  @ApiOperation({ summary: 'This document', description: 'Generated from the running app: lists exactly the routes this process serves, under its api.prefix.' })
  @ApiOkResponse({ description: 'OpenAPI 3.1', schema: { type: 'object' } })
  openapi() {
    return this.served.document();
  }
}
