import { Controller, Get, Module } from '@nestjs/common';
import { Public } from './auth/gates';
import { KB_OPENAPI } from './openapi';

/** The API's own description; public, it holds no data. */
@Controller('api/kb')
export class KbOpenApiController {
  @Get('openapi.json')
  @Public()
  openapi() {
    return KB_OPENAPI;
  }
}

@Module({ controllers: [KbOpenApiController] })
export class KbOpenApiModule {}
