import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { AUTH_RESOURCE, AuthResource } from '@platform/auth';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { CreateIdentityLinkDto } from './identity-links.dto';
import { IdentityLinksService } from './identity-links.service';

/** Explicit iam identity → KB user links of the active tenant (`can:manageMcpTools`, super-admin). */
@Controller('api/admin/identity-links')
@Can('manageMcpTools')
export class IdentityLinksController {
  constructor(
    private readonly links: IdentityLinksService,
    @Inject(AUTH_RESOURCE) private readonly auth: AuthResource,
  ) {}

  @Get()
  list(@Req() req: KbRequest) {
    return this.links.list(req.kbPrincipal!.tenantId);
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateIdentityLinkDto, @Req() req: KbRequest) {
    const issuer = (body.issuer ?? this.auth.issuer).replace(/\/+$/, '');
    return this.links.create(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, { issuer, subject: body.subject, user_id: body.user_id });
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', new RecordIdPipe('Identity link')) id: string, @Req() req: KbRequest): Promise<void> {
    await this.links.remove(req.kbPrincipal!.tenantId, id);
  }
}
