import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiClientAuthentication, ApiDpopHeader, ApiFormBody, ApiOAuthError, ApiOAuthRateLimited, CLIENT_AUTHENTICATION } from '../api-docs';
import { PushedAuthorizationForm } from './dto/par.form';
import { PushedAuthorizationResponse } from './dto/token.response';
import { AuthorizeService, UntrustedRedirectError } from './authorize.service';
import { ClientAuthenticator } from './client-authenticator.service';
import { DpopProofs } from './dpop-proofs.service';
import { readForm } from './form';
import { OAuthError, OAuthErrorFilter } from './oauth-error';
import { AuthorizationParams, PushedRequests } from './pushed-requests';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { TokenIssuer } from './token-issuer.service';
import { IamConfig } from '../../config/iam-config';

/** Client authentication travels with the push but is no part of the authorization request. */
const CLIENT_AUTH = ['client_id', 'client_secret', 'client_assertion', 'client_assertion_type'];

/**
 * POST /oauth/par (RFC 9126): the client authenticates as at the token endpoint and pushes its
 * authorization request, which is checked as authorize would check it (errors answer here, as
 * JSON) and kept for OAUTH_PAR_TTL_SEC behind a single-use request_uri. A DPoP proof on the push
 * binds the code to its key (RFC 9449 §10.1).
 */
@ApiTags('OAuth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class ParController {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly authorize: AuthorizeService,
    private readonly pushed: PushedRequests,
    private readonly dpop: DpopProofs,
    private readonly issuer: TokenIssuer,
    private readonly config: IamConfig,
  ) {}

  @Post('par')
  @HttpCode(201)
  @ApiOperation({
    summary: 'RFC 9126 pushed authorization request: the authorize parameters, answered with a single-use request_uri',
    description: `${CLIENT_AUTHENTICATION} The parameters are checked as the authorize endpoint checks them, but errors answer here as JSON. A DPoP proof binds the code to its key (dpop_jkt). The request_uri works once, for this client, for OAUTH_PAR_TTL_SEC. Answers carry Cache-Control: no-store.`,
  })
  @ApiClientAuthentication()
  @ApiDpopHeader()
  @ApiFormBody(PushedAuthorizationForm)
  @ApiCreatedResponse({ description: 'Pushed', type: PushedAuthorizationResponse })
  @ApiOAuthError(
    400,
    '`invalid_request` (also an unregistered redirect_uri, a `request_uri` in the body, a body that is not form-encoded, or a parameter repeated or not a string), `invalid_scope`, `invalid_target`, `unauthorized_client`, `unsupported_response_type`, `request_not_supported`, `invalid_dpop_proof`, `use_dpop_nonce`',
  )
  @ApiOAuthError(401, '`invalid_client`')
  @ApiOAuthRateLimited()
  async push(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ request_uri: string; expires_in: number }> {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw OAuthError.invalidRequest('the body must be application/x-www-form-urlencoded');
    }
    const { form, resources } = readForm(PushedAuthorizationForm, body);
    if (form['request'] !== undefined) throw new OAuthError('request_not_supported', 'request objects are not supported; push the parameters');
    const endpoint = `${this.issuer.issuer}/oauth/par`;
    const proof = await this.dpop.verify(req.headers['dpop'], endpoint);
    const { client } = await this.authenticator.authenticate({ authorization, body: form, tokenEndpoint: endpoint });
    if (proof) {
      await this.dpop.claim(proof);
      for (const [name, value] of Object.entries(this.dpop.nonceHeader())) res.setHeader(name, value);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');

    const params: AuthorizationParams = {};
    for (const [k, v] of Object.entries(form)) if (!CLIENT_AUTH.includes(k) && v !== undefined) params[k] = v;
    if (resources.length) params['resource'] = resources;
    if (proof) {
      if (params['dpop_jkt'] !== undefined && params['dpop_jkt'] !== proof.jkt) {
        throw OAuthError.invalidRequest('dpop_jkt differs from the key of the DPoP proof');
      }
      params['dpop_jkt'] = proof.jkt;
    }
    let redirectUri: string;
    try {
      redirectUri = this.authorize.trustedRedirect(client, typeof params['redirect_uri'] === 'string' ? params['redirect_uri'] : undefined);
    } catch (e) {
      if (e instanceof UntrustedRedirectError) throw OAuthError.invalidRequest(e.message);
      throw e;
    }
    this.authorize.check(client, redirectUri, params);
    const ttl = this.config.get('OAUTH_PAR_TTL_SEC');
    return { request_uri: await this.pushed.push(client.clientId, params, ttl), expires_in: ttl };
  }
}
