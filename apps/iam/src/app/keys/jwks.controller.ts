import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic } from '@platform/runtime';
import type { Response } from 'express';
import { JsonWebKeySet } from '../oauth/dto/token.response';
import { SigningKeysService } from './signing-keys.service';
import { IamConfig } from '../../config/iam-config';

@ApiTags('Discovery')
@Controller('.well-known')
export class JwksController {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly config: IamConfig,
  ) {}

  @Get('jwks.json')
  @ApiPublic()
  @ApiOperation({ summary: 'The public signing keys (next, active and retiring)' })
  @ApiOkResponse({ description: 'JWK set; Cache-Control: public, max-age=IAM_JWKS_MAX_AGE_SEC', type: JsonWebKeySet })
  async jwks(@Res() res: Response): Promise<void> {
    const maxAge = this.config.get('IAM_JWKS_MAX_AGE_SEC');
    res.setHeader('Cache-Control', `public, max-age=${maxAge}`);
    res.json({ keys: await this.keys.publishedKeys() });
  }
}
