import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiOAuthError, ApiOAuthRateLimited } from '../api-docs';
import { ClientRegistrationRequest } from './dto/client-registration.request';
import { ClientRegistrationResponse } from './dto/client-registration.response';
import { OAuthError, OAuthErrorFilter } from '../oauth/oauth-error';
import { OAuthRateLimitGuard } from '../oauth/rate-limit.guard';
import { RegistrationService } from './registration.service';
import { UnregisteredClientPolicy } from './unregistered-client-policy';

/**
 * POST /oauth/register (RFC 7591), behind an initial access token; off (404) unless tokens are
 * configured. The body is read as `unknown` and checked by RegistrationService against
 * ClientRegistrationRequest, so a refusal answers RFC 7591's error codes, not the global pipe's.
 */
@ApiTags('OAuth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class RegistrationController {
  constructor(
    private readonly registration: RegistrationService,
    private readonly policy: UnregisteredClientPolicy,
  ) {}

  @Post('register')
  @HttpCode(201)
  @ApiOperation({
    summary: 'RFC 7591 dynamic registration of a public client (for clients that cannot use a Client ID Metadata Document)',
    description:
      'Needs `Authorization: Bearer <initial access token>` (IAM_REGISTRATION_INITIAL_ACCESS_TOKENS); 404 while none is configured. Registers a public client only: `token_endpoint_auth_method` none, grants authorization_code (+ refresh_token), PKCE S256 required at authorize, consent asked on first use. Redirect URIs: https, or http on a loopback address (RFC 8252). Scopes are limited to IAM_UNREGISTERED_CLIENT_SCOPES. Unknown metadata is ignored. Cache-Control: no-store.',
  })
  @ApiSecurity('bearer')
  @ApiBody({ type: ClientRegistrationRequest })
  @ApiCreatedResponse({ description: 'The client is registered (no secret is ever issued)', type: ClientRegistrationResponse })
  @ApiOAuthError(
    400,
    '`invalid_redirect_uri` or `invalid_client_metadata` (a confidential method, a secret or keys, a grant other than authorization_code/refresh_token, a body that is not a JSON object)',
  )
  @ApiOAuthError(401, '`invalid_token`: no initial access token (WWW-Authenticate: Bearer) or a wrong one (Bearer error="invalid_token")')
  @ApiOAuthError(404, '`not_found`: dynamic registration is off')
  @ApiOAuthRateLimited()
  async register(
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (!this.policy.registrationEnabled) throw new OAuthError('not_found', 'dynamic client registration is not enabled', 404);
    this.registration.authorize(authorization);
    if (!req.is('application/json')) throw new OAuthError('invalid_client_metadata', 'the body must be application/json');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    return this.registration.register(body);
  }
}
