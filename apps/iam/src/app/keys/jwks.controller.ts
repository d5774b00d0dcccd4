import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SigningKeysService } from './signing-keys.service';
import { IamConfig } from '../../config/iam-config';

@Controller('.well-known')
export class JwksController {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly config: IamConfig,
  ) {}

  @Get('jwks.json')
  async jwks(@Res() res: Response): Promise<void> {
    const maxAge = this.config.get('IAM_JWKS_MAX_AGE_SEC');
    res.setHeader('Cache-Control', `public, max-age=${maxAge}`);
    res.json({ keys: await this.keys.publishedKeys() });
  }
}
