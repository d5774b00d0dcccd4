import { Body, Controller, Get, Headers, Param, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, JwtAuthGuard, Principal, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblem } from '../api-docs';
import { ClientStatusAnswer, RevokedClientAnswer, RotatedSecretAnswer } from './dto/client-secret.response';
import { ManifestAnswer } from './dto/manifest.response';
import { ApplicationManifestDto } from './application-manifest.dto';
import { ApplicationsService } from './applications.service';
import { ClientSecretsService } from './client-secrets.service';
import { IdempotencyService, IdempotentResult } from './idempotency.service';

function send(res: Response, r: IdempotentResult): void {
  if (r.replayed) res.setHeader('Idempotency-Replayed', 'true');
  res.setHeader('Cache-Control', 'no-store');
  res.status(r.status);
  if (r.status >= 400) res.type('application/problem+json').send(JSON.stringify(r.body));
  else res.json(r.body);
}

/** Required on every write; the same key with the same request replays the first answer. */
const ApiIdempotencyKey = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description:
      'Required on every write: a repeat with the same request replays the first answer (`Idempotency-Replayed: true`); the same key with another request is 422',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  });

/** /api/iam/v1: iam-issued ES256 bearer tokens carrying the permission as a scope. */
@ApiTags('Management')
@ApiParam({ name: 'app', description: 'Application key (the client id is `cli_<app>`)', schema: { type: 'string', minLength: 1, maxLength: 100 } })
@ApiProblem(401, 'No valid iam access token')
@ApiProblem(403, 'The token lacks the scope')
@ApiProblem(404, 'No such application')
@Controller('api/iam/v1/applications/:app')
@UseGuards(JwtAuthGuard)
export class ManagementController {
  constructor(
    private readonly secrets: ClientSecretsService,
    private readonly applications: ApplicationsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  private fingerprint(req: Request): string {
    return `${req.method}|${req.originalUrl}|${JSON.stringify(req.body ?? {})}`;
  }

  @Get('client')
  @RequireScopes(SCOPES.applicationsRead)
  @ApiOperation({ summary: "Credential status of the application's client", description: 'Scope `iam:applications.read`.' })
  @ApiSecurity('bearer', [SCOPES.applicationsRead])
  @ApiOkResponse({ description: 'The status', type: ClientStatusAnswer })
  async client(@Param('app') app: string) {
    return { data: await this.secrets.status(app) };
  }

  @Post('rotate-secret')
  @RequireScopes(SCOPES.clientsManage)
  @ApiOperation({ summary: 'Rotates the client secret; the previous one keeps validating until grace_until', description: 'Scope `iam:clients.manage`. The new secret is returned once.' })
  @ApiSecurity('bearer', [SCOPES.clientsManage])
  @ApiIdempotencyKey()
  @ApiOkResponse({ description: 'The new secret', type: RotatedSecretAnswer })
  @ApiProblem(409, 'Revoked client, previous secret still in grace, or the same Idempotency-Key still running')
  @ApiProblem(422, 'Public or private_key_jwt client, or no Idempotency-Key')
  async rotate(@Param('app') app: string, @CurrentPrincipal() who: Principal, @Headers('idempotency-key') key: string | undefined, @Req() req: Request, @Res() res: Response) {
    send(res, await this.idempotency.run(who.sub, key, this.fingerprint(req), async () => ({ status: 200, body: { data: await this.secrets.rotate(app, who.sub) } })));
  }

  @Post('revoke-client')
  @RequireScopes(SCOPES.clientsManage)
  @ApiOperation({ summary: 'Revokes the client: its authentication ends at once', description: 'Scope `iam:clients.manage`.' })
  @ApiSecurity('bearer', [SCOPES.clientsManage])
  @ApiIdempotencyKey()
  @ApiOkResponse({ description: 'Revoked', type: RevokedClientAnswer })
  @ApiProblem(409, 'Already revoked, or the same Idempotency-Key still running')
  @ApiProblem(422, 'No Idempotency-Key')
  async revoke(@Param('app') app: string, @CurrentPrincipal() who: Principal, @Headers('idempotency-key') key: string | undefined, @Req() req: Request, @Res() res: Response) {
    send(res, await this.idempotency.run(who.sub, key, this.fingerprint(req), async () => ({ status: 200, body: { data: await this.secrets.revoke(app, who.sub) } })));
  }

  /** Applies the application's manifest (creates or updates the app and its client). */
  @Put('manifest')
  @RequireScopes(SCOPES.clientsManage)
  @ApiOperation({
    summary: 'Applies the application manifest: creates or updates the application and its client',
    description: 'Scope `iam:clients.manage`. The client id is `cli_<app>`; a re-apply keeps the existing secret.',
  })
  @ApiSecurity('bearer', [SCOPES.clientsManage])
  @ApiIdempotencyKey()
  @ApiBody({ type: ApplicationManifestDto })
  @ApiOkResponse({ description: 'Updated', type: ManifestAnswer })
  @ApiCreatedResponse({ description: 'Created; `client_secret` only on the first apply of a confidential client', type: ManifestAnswer })
  @ApiProblem(409, 'The same Idempotency-Key is still running')
  @ApiProblem(422, 'Invalid manifest, no Idempotency-Key, or the key reused with another request')
  async apply(
    @Param('app') app: string,
    @Body() manifest: ApplicationManifestDto,
    @CurrentPrincipal() who: Principal,
    @Headers('idempotency-key') key: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    send(
      res,
      await this.idempotency.run(who.sub, key, this.fingerprint(req), async () => {
        const data = await this.applications.apply(app, manifest, who.sub);
        return { status: data.created ? 201 : 200, body: { data } };
      }),
    );
  }
}
