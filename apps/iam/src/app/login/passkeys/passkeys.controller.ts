import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic } from '@platform/runtime';
import type { Request, Response } from 'express';
import { ApiCsrfHeader, ApiPasskeyRefused, ApiSession } from '../../api-docs';
import { PasskeyOptionsRequest, PasskeyRedirect, PasskeyRegistrationRequest, PasskeySignInRequest } from './passkey.dto';
import { readCookie } from '../../session/cookies';
import { CurrentSession, OptionalSession } from '../../session/session.guards';
import { IamSession, SessionService } from '../../session/session.service';
import { AccountAccessService } from '../account-access';
import { CsrfService } from '../csrf.service';
import { safeReturnTo } from '../return-to';
import { PasskeysService } from './passkeys.service';
import { readDto } from '../../read-dto';
import { IamConfig } from '../../../config/iam-config';

const CEREMONY_COOKIE = 'iam_webauthn';

/**
 * JSON endpoints the page's passkey script calls; CSRF token in the x-csrf-token header. The
 * browser session is optional on every call: an expired page (CSRF) is answered before a missing
 * session, and signing in with a passkey needs none.
 */
@ApiTags('Sign-in pages')
@ApiCsrfHeader()
@OptionalSession()
@Controller('login')
export class PasskeysController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly sessions: SessionService,
    private readonly access: AccountAccessService,
    private readonly csrf: CsrfService,
    private readonly config: IamConfig,
  ) {}

  private remember(res: Response, handle: string): void {
    res.cookie(CEREMONY_COOKIE, handle, { httpOnly: true, sameSite: 'strict', secure: this.config.secureCookies, path: '/login', maxAge: 300_000 });
  }

  private refuse(res: Response, status: number, message: string): void {
    res.status(status).json({ message });
  }

  @Post('passkey/options')
  @HttpCode(200)
  @ApiPublic()
  @ApiOperation({ summary: 'WebAuthn authentication options for passkey sign-in or step-up' })
  @ApiBody({ type: PasskeyOptionsRequest, required: false })
  @ApiOkResponse({ description: 'PublicKeyCredentialRequestOptionsJSON', schema: { type: 'object' } })
  @ApiPasskeyRefused(401, 403)
  async signInOptions(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    if (!this.csrf.valid(req, req.headers['x-csrf-token'])) return this.refuse(res, 403, 'This page expired. Reload it and try again.');
    const { value: request } = readDto(PasskeyOptionsRequest, body);
    // Only a step-up names the session's user (and offers that user's passkeys).
    const { handle, options } = await this.passkeys.authenticationOptions(request.step_up === true ? session?.sub : undefined);
    this.remember(res, handle);
    res.json(options);
  }

  @Post('passkey/verify')
  @HttpCode(200)
  @ApiPublic()
  @ApiOperation({ summary: 'Verifies the assertion and signs in (aal2)' })
  @ApiBody({ type: PasskeySignInRequest })
  @ApiOkResponse({ description: 'Signed in', type: PasskeyRedirect })
  @ApiPasskeyRefused(400, 401, 403)
  async signIn(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    if (!this.csrf.valid(req, req.headers['x-csrf-token'])) return this.refuse(res, 403, 'This page expired. Reload it and try again.');
    res.clearCookie(CEREMONY_COOKIE, { path: '/login' });
    const { value: request } = readDto(PasskeySignInRequest, body);
    const result = request.credential ? await this.passkeys.authenticate(readCookie(req, CEREMONY_COOKIE), request.credential) : undefined;
    if (!result) return this.refuse(res, 401, 'That passkey could not be verified. Try again or use your password.');
    // The session the browser came with: the same user's is raised, anyone else's replaced.
    if (session && session.sub === result.userId) {
      await this.sessions.raise(session, 'aal2', result.amr);
    } else {
      await this.sessions.start(req, res, { sub: result.userId, acr: 'aal2', amr: [...result.amr, 'mfa'] });
    }
    res.json({ redirect: safeReturnTo(request.return_to) });
  }

  @Post('account/passkeys/options')
  @HttpCode(200)
  @ApiSession()
  @ApiOperation({ summary: "WebAuthn registration options (called by the page's script)" })
  @ApiOkResponse({ description: 'PublicKeyCredentialCreationOptionsJSON', schema: { type: 'object' } })
  @ApiPasskeyRefused(401, 403)
  async registrationOptions(@Req() req: Request, @Res() res: Response, @CurrentSession() session: IamSession | undefined): Promise<void> {
    if (!this.csrf.valid(req, req.headers['x-csrf-token'])) return this.refuse(res, 403, 'This page expired. Reload it and try again.');
    const access = await this.access.resolve(session);
    if (!access) return this.refuse(res, 401, 'Your session ended. Sign in again.');
    if (!access.mayChangeFactors) return this.refuse(res, 403, 'Confirm it is you with your second factor first.');
    const { handle, options } = await this.passkeys.registrationOptions(access.user);
    this.remember(res, handle);
    res.json(options);
  }

  @Post('account/passkeys/verify')
  @HttpCode(200)
  @ApiSession()
  @ApiOperation({ summary: 'Verifies the registration response and stores the passkey' })
  @ApiBody({ type: PasskeyRegistrationRequest })
  @ApiOkResponse({ description: 'Stored', type: PasskeyRedirect })
  @ApiPasskeyRefused(400, 401, 403)
  async register(@Req() req: Request, @Res() res: Response, @Body() body: unknown, @CurrentSession() session: IamSession | undefined): Promise<void> {
    if (!this.csrf.valid(req, req.headers['x-csrf-token'])) return this.refuse(res, 403, 'This page expired. Reload it and try again.');
    res.clearCookie(CEREMONY_COOKIE, { path: '/login' });
    const access = await this.access.resolve(session);
    if (!access) return this.refuse(res, 401, 'Your session ended. Sign in again.');
    if (!access.mayChangeFactors) return this.refuse(res, 403, 'Confirm it is you with your second factor first.');
    const { value: request, errors } = readDto(PasskeyRegistrationRequest, body);
    if (errors.name) return this.refuse(res, 400, errors.name);
    const ok = request.credential ? await this.passkeys.register(readCookie(req, CEREMONY_COOKIE), access.user, request.credential, request.name ?? '') : false;
    if (!ok) return this.refuse(res, 400, 'The passkey could not be registered. Try again.');
    res.json({ redirect: '/login/account?added=passkey' });
  }
}
