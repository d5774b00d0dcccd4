import { Controller, Get, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { SigningKeysService } from './signing-keys.service';

@Controller('.well-known')
export class JwksController {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly config: ConfigService,
  ) {}

  @Get('jwks.json')
  async jwks(@Res() res: Response): Promise<void> {
    const maxAge = this.config.get<number>('IAM_JWKS_MAX_AGE_SEC', 300);
    res.setHeader('Cache-Control', `public, max-age=${maxAge}`);
    res.json({ keys: await this.keys.publishedKeys() });
  }
}
