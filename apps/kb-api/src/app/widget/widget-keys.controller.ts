import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../admin/pagination';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { CreateWidgetKeyDto, IdentityVersionDto, UpdateWidgetKeyDto } from './dto/widget-keys.dto';
import { WidgetKeysService } from './widget-keys.service';

const keyId = new RecordIdPipe('Widget key');

/** /api/admin/widget-keys: `can:manageWidgetKeys` (super-admin) in the active tenant. */
@Controller('api/admin/widget-keys')
@Can('manageWidgetKeys')
export class WidgetKeysController {
  constructor(private readonly keys: WidgetKeysService) {}

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateWidgetKeyDto, @Req() req: KbRequest) {
    return this.keys.create(req.kbPrincipal!.tenantId, req.kbPrincipal!.userId, body);
  }

  @Get()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.keys.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  async show(@Param('id', keyId) id: string, @Req() req: KbRequest) {
    return { data: await this.keys.show(req.kbPrincipal!.tenantId, id) };
  }

  @Patch(':id')
  async update(@Param('id', keyId) id: string, @Body() body: UpdateWidgetKeyDto, @Req() req: KbRequest) {
    return { data: await this.keys.update(req.kbPrincipal!.tenantId, id, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', keyId) id: string, @Req() req: KbRequest): Promise<void> {
    await this.keys.delete(req.kbPrincipal!.tenantId, id);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  rotate(@Param('id', keyId) id: string, @Req() req: KbRequest) {
    return this.keys.rotate(req.kbPrincipal!.tenantId, id);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  async revoke(@Param('id', keyId) id: string, @Req() req: KbRequest) {
    return { data: await this.keys.revoke(req.kbPrincipal!.tenantId, id) };
  }

  @Post(':id/rotate-identity-secret')
  @HttpCode(200)
  rotateIdentitySecret(@Param('id', keyId) id: string, @Body() body: IdentityVersionDto, @Req() req: KbRequest) {
    return this.keys.rotateIdentitySecret(req.kbPrincipal!.tenantId, id, body.identity_credential_version);
  }
}
