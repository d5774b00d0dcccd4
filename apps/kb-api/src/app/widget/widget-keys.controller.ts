import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../admin/pagination';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { CreateWidgetKeyDto, IdentityVersionDto, UpdateWidgetKeyDto } from './dto/widget-keys.dto';
import { WidgetKeysService } from './widget-keys.service';
import { ApiOkResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiPage, ApiRowIdParam, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../api-docs';
import { CreatedWidgetKeyDto, RotatedIdentitySecretDto, RotatedWidgetKeyDto, WidgetKeyDto } from './dto/widget-responses.dto';

const ApiKeyNotFound = () => ApiResponse({ status: 404, description: "Unknown or another tenant's key `{error: \"not_found\", message}`", type: ErrorBody });
const ApiIdentityConflict = () =>
  ApiResponse({ status: 409, description: 'Stale identity_credential_version `{error: "identity_credential_conflict", message}`', type: ErrorBody });

const keyId = new RecordIdPipe('Widget key');

/** /api/admin/widget-keys: `can:manageWidgetKeys` (super-admin) in the active tenant. */
@ApiTags('Widget')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/widget-keys')
@Can('manageWidgetKeys')
export class WidgetKeysController {
  constructor(private readonly keys: WidgetKeysService) {}

  @Post()
  @ApiOperation({
    summary: 'Creates a key; the proxy secret (and identity secret, with user_auth_enabled) are shown only here',
    description: 'Gate `can:manageWidgetKeys` (super-admin).',
  })
  @ApiCreatedResponse({ description: 'The key and its secrets', type: CreatedWidgetKeyDto })
  @ApiValidationFailed()
  @HttpCode(201)
  create(@Body() body: CreateWidgetKeyDto, @Req() req: KbRequest) {
    return this.keys.create(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, body);
  }

  @Get()
  @ApiOperation({
    summary: 'Widget keys of the active tenant, newest first (never their secrets)',
    description: 'Gate `can:manageWidgetKeys` (super-admin). `search`: in label, project key or public key.',
  })
  @ApiPage(WidgetKeyDto)
  @ApiValidationFailed()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.keys.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One key', description: 'Gate `can:manageWidgetKeys` (super-admin).' })
  @ApiRowIdParam('Widget key id')
  @ApiData(WidgetKeyDto, { description: 'The key' })
  @ApiKeyNotFound()
  async show(@Param('id', keyId) id: string, @Req() req: KbRequest) {
    return { data: await this.keys.show(req.kbPrincipal!.tenantId, id) };
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Updates a key (enable/disable and other fields); an identity mutation: carries identity_credential_version and moves it',
    description: 'Gate `can:manageWidgetKeys` (super-admin).',
  })
  @ApiRowIdParam('Widget key id')
  @ApiData(WidgetKeyDto, { description: 'The key at its new version' })
  @ApiKeyNotFound()
  @ApiIdentityConflict()
  @ApiValidationFailed()
  async update(@Param('id', keyId) id: string, @Body() body: UpdateWidgetKeyDto, @Req() req: KbRequest) {
    return { data: await this.keys.update(req.kbPrincipal!.tenantId, id, body) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a key with its tokens and sessions', description: 'Gate `can:manageWidgetKeys` (super-admin).' })
  @ApiRowIdParam('Widget key id')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiKeyNotFound()
  @HttpCode(204)
  async remove(@Param('id', keyId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.keys.delete(req.kbPrincipal!.tenantId, id);
  }

  @Post(':id/rotate')
  @ApiOperation({ summary: 'New proxy secret, shown once; the old one stops working', description: 'Gate `can:manageWidgetKeys` (super-admin).' })
  @ApiRowIdParam('Widget key id')
  @ApiOkResponse({ description: 'The key and its new secret', type: RotatedWidgetKeyDto })
  @ApiKeyNotFound()
  @HttpCode(200)
  rotate(@Param('id', keyId) id: string, @Req() req: KbRequest) {
    return this.keys.rotate(req.kbPrincipal!.tenantId, id);
  }

  @Post(':id/revoke')
  @ApiOperation({ summary: 'Revokes the key for good (inactive, cannot be enabled again)', description: 'Gate `can:manageWidgetKeys` (super-admin).' })
  @ApiRowIdParam('Widget key id')
  @ApiData(WidgetKeyDto, { description: 'The revoked key' })
  @ApiKeyNotFound()
  @HttpCode(200)
  async revoke(@Param('id', keyId) id: string, @Req() req: KbRequest) {
    return { data: await this.keys.revoke(req.kbPrincipal!.tenantId, id) };
  }

  @Post(':id/rotate-identity-secret')
  @ApiOperation({
    summary: 'New identity secret, shown once; compare-and-set on identity_credential_version; user tokens of the old version stop working',
    description: 'Gate `can:manageWidgetKeys` (super-admin).',
  })
  @ApiRowIdParam('Widget key id')
  @ApiOkResponse({ description: 'The key at its new version and the secret', type: RotatedIdentitySecretDto })
  @ApiKeyNotFound()
  @ApiIdentityConflict()
  @ApiValidationFailed()
  @HttpCode(200)
  rotateIdentitySecret(@Param('id', keyId) id: string, @Body() body: IdentityVersionDto, @Req() req: KbRequest) {
    return this.keys.rotateIdentitySecret(req.kbPrincipal!.tenantId, id, body.identity_credential_version);
  }
}
