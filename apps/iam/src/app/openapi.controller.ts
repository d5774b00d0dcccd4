import { Controller, Get, Module } from '@nestjs/common';
import { IAM_OPENAPI } from './openapi';

/** The API's own description, under the management prefix the gateway forwards; public, it holds no data. */
@Controller('api/iam')
export class IamOpenApiController {
  @Get('openapi.json')
  openapi() {
    return IAM_OPENAPI;
  }
}

@Module({ controllers: [IamOpenApiController] })
export class IamOpenApiModule {}
