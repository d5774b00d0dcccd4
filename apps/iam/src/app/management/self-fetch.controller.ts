import { Controller, Headers, HttpCode, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ClientAuthenticator } from '../oauth/client-authenticator.service';
import { OAuthError, OAuthErrorFilter } from '../oauth/oauth-error';
import { OAuthRateLimitGuard } from '../oauth/rate-limit.guard';
import { ClientSecretsService } from './client-secrets.service';
import { IamConfig } from '../../config/iam-config';

/** POST /oauth/client-secret: a client fetches its automatically rotated secret, once. */
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class SelfFetchController {
  constructor(
    private readonly config: IamConfig,
    private readonly authenticator: ClientAuthenticator,
    private readonly secrets: ClientSecretsService,
  ) {}

  @Post('client-secret')
  @HttpCode(200)
  async fetch(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    if (!this.config.get('IAM_OAUTH_CLIENT_SELFFETCH')) throw new OAuthError('not_found', 'not found', 404);
    if (!authorization?.startsWith('Basic ')) throw OAuthError.invalidClient('HTTP Basic client authentication is required', true);
    const { client } = await this.authenticator.authenticate({ authorization, body: {}, tokenEndpoint: '' });
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    return this.secrets.pickUp(client);
  }
}
