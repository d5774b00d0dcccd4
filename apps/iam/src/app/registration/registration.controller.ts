import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OAuthError, OAuthErrorFilter } from '../oauth/oauth-error';
import { OAuthRateLimitGuard } from '../oauth/rate-limit.guard';
import { RegistrationService } from './registration.service';
import { UnregisteredClientPolicy } from './unregistered-client-policy';

/** POST /oauth/register (RFC 7591), behind an initial access token; off (404) unless tokens are configured. */
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
