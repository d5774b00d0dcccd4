import { Body, Controller, Get, Headers, Param, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, JwtAuthGuard, Principal, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import type { Request, Response } from 'express';
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

/** /api/iam/v1: iam-issued ES256 bearer tokens carrying the permission as a scope. */
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
  async client(@Param('app') app: string) {
    return { data: await this.secrets.status(app) };
  }

  @Post('rotate-secret')
  @RequireScopes(SCOPES.clientsManage)
  async rotate(@Param('app') app: string, @CurrentPrincipal() who: Principal, @Headers('idempotency-key') key: string | undefined, @Req() req: Request, @Res() res: Response) {
    send(res, await this.idempotency.run(who.sub, key, this.fingerprint(req), async () => ({ status: 200, body: { data: await this.secrets.rotate(app, who.sub) } })));
  }

  @Post('revoke-client')
  @RequireScopes(SCOPES.clientsManage)
  async revoke(@Param('app') app: string, @CurrentPrincipal() who: Principal, @Headers('idempotency-key') key: string | undefined, @Req() req: Request, @Res() res: Response) {
    send(res, await this.idempotency.run(who.sub, key, this.fingerprint(req), async () => ({ status: 200, body: { data: await this.secrets.revoke(app, who.sub) } })));
  }

  /** Applies the application's manifest (creates or updates the app and its client). */
  @Put('manifest')
  @RequireScopes(SCOPES.clientsManage)
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
