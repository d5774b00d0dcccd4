import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { ChatFilterPresetDto } from './dto/preset.dto';
import { PresetsService } from './presets.service';

const caller = (req: KbRequest) => ({ tenantId: req.kbPrincipal!.tenantId, userId: req.kbPrincipal!.userId! });
const presetId = new RecordIdPipe('Preset');

@Controller('api/chat-filter-presets')
@UserOnly()
export class PresetsController {
  constructor(private readonly presets: PresetsService) {}

  @Get()
  async list(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.list(tenantId, userId) };
  }

  @Post()
  async create(@Body() body: ChatFilterPresetDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.create(tenantId, userId, body.name, instanceToPlain(body.filters)) };
  }

  @Get(':id')
  async show(@Param('id', presetId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.get(tenantId, userId, id) };
  }

  @Put(':id')
  async update(@Param('id', presetId) id: string, @Body() body: ChatFilterPresetDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.update(tenantId, userId, id, body.name, instanceToPlain(body.filters)) };
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', presetId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    await this.presets.remove(tenantId, userId, id);
  }
}
