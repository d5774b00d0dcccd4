import { Controller, Headers, HttpCode, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiOAuthError, ApiOAuthRateLimited } from '../api-docs';
import { SelfFetchResponse } from './dto/client-secret.response';
import { ClientAuthenticator } from '../oauth/client-authenticator.service';
import { OAuthError, OAuthErrorFilter } from '../oauth/oauth-error';
import { OAuthRateLimitGuard } from '../oauth/rate-limit.guard';
import { ClientSecretsService } from './client-secrets.service';
import { IamConfig } from '../../config/iam-config';

/** POST /oauth/client-secret: a client fetches its automatically rotated secret, once. */
@ApiTags('OAuth')
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
  @ApiOperation({
    summary: 'Self-fetch: a client picks up its automatically rotated secret exactly once',
    description: 'HTTP Basic with the current (or in-grace previous) secret, no body. 404 while IAM_OAUTH_CLIENT_SELFFETCH is off. Cache-Control: no-store.',
  })
  @ApiSecurity('clientBasic')
  @ApiOkResponse({ description: '`{rotated: false}`, or the new secret once', type: SelfFetchResponse })
  @ApiOAuthError(401, '`invalid_client`')
  @ApiOAuthError(404, 'Self-fetch is switched off')
  @ApiOAuthRateLimited()
  async fetch(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    if (!this.config.get('IAM_OAUTH_CLIENT_SELFFETCH')) throw new OAuthError('not_found', 'not found', 404);
    if (!authorization?.startsWith('Basic ')) throw OAuthError.invalidClient('HTTP Basic client authentication is required', true);
    const { client } = await this.authenticator.authenticate({ authorization, body: {}, tokenEndpoint: '' });
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    return this.secrets.pickUp(client);
  }
}
