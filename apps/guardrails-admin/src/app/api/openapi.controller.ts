import { Controller, Get, UseFilters } from '@nestjs/common';
import { GuardrailsEnvelopeFilter } from './envelope';
import { GUARDRAILS_OPENAPI } from './openapi';

/** The API's own description, readable without the host middleware (it holds no data). */
@Controller()
@UseFilters(GuardrailsEnvelopeFilter)
export class GuardrailsOpenApiController {
  @Get('openapi.json')
  openapi() {
    return GUARDRAILS_OPENAPI;
  }
}
