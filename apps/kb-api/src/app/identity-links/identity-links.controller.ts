import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { AUTH_RESOURCE, AuthResource } from '@platform/auth';
import { ApiNoContentResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiValidationFailed, ErrorBody, MessageBody } from '../api-docs';
import { ApiRowIdParam } from '../api-docs/params';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { IdentityLinkViewDto } from './identity-link-view.dto';
import { CreateIdentityLinkDto } from './identity-links.dto';
import { IdentityLinksService } from './identity-links.service';

/** Explicit iam identity → KB user links of the active tenant (`can:manageMcpTools`, super-admin). */
@ApiTags('Admin: identity links')
@ApiResponse({ status: 401, description: 'Guest `{message: "Unauthenticated."}`', type: MessageBody })
@ApiResponse({ status: 403, description: 'Not allowed by the gate `{message}`', type: MessageBody })
@Controller('api/admin/identity-links')
@Can('manageMcpTools')
export class IdentityLinksController {
  constructor(
    private readonly links: IdentityLinksService,
    @Inject(AUTH_RESOURCE) private readonly auth: AuthResource,
  ) {}

  @Get()
  @ApiOperation({ summary: "The active tenant's explicit iam identity → KB user links, newest first (`can:manageMcpTools`)" })
  @ApiData(IdentityLinkViewDto, { isArray: true, description: 'Links' })
  list(@Req() req: KbRequest) {
    return this.links.list(req.kbPrincipal!.tenantId);
  }

  @Post()
  @ApiOperation({
    summary: 'Links an iam identity (issuer + subject) to a user of the active tenant: its iam tokens act as that user at /mcp/kb (`can:manageMcpTools`)',
  })
  @ApiData(IdentityLinkViewDto, { status: 201, description: 'Linked' })
  @ApiResponse({ status: 409, description: '`{error:"identity_link_exists"}`: the identity is linked already', type: ErrorBody })
  @ApiValidationFailed('Validation failed `{message, errors}` naming the field')
  @HttpCode(201)
  create(@Body() body: CreateIdentityLinkDto, @Req() req: KbRequest) {
    const issuer = (body.issuer ?? this.auth.issuer).replace(/\/+$/, '');
    const p = req.kbPrincipal!;
    return this.links.create(p.tenantId, { userId: p.userId ?? '', roles: p.roles, platformAdmin: p.platformAdmin }, { issuer, subject: body.subject, user_id: body.user_id });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Removes a link; the identity stops acting as the user at once (`can:manageMcpTools`)' })
  @ApiRowIdParam('Identity link id')
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiResponse({ status: 404, description: "Unknown or another tenant's link", type: ErrorBody })
  @HttpCode(204)
  async remove(@Param('id', new RecordIdPipe('Identity link')) id: string, @Req() req: KbRequest): Promise<void> {
    await this.links.remove(req.kbPrincipal!.tenantId, id);
  }
}
