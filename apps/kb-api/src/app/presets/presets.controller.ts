import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiValidationFailed } from '../api-docs';
import { ApiNotOwned, ApiSignedIn } from '../api-docs/signed-in';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { RecordIdPipe } from '../conversations/record-id';
import { ChatFilterPresetDto } from './dto/preset.dto';
import { PresetViewDto } from './dto/preset-view.dto';
import { PresetsService } from './presets.service';

const caller = (req: KbRequest) => ({ tenantId: req.kbPrincipal!.tenantId, userId: req.kbPrincipal!.userId! });
const presetId = new RecordIdPipe('Preset');
const ApiPresetId = () =>
  ApiParam({ name: 'id', description: 'Preset id; anything but a positive integer is a 404', schema: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } });

@ApiTags('Chat filter presets')
@ApiSignedIn()
@Controller('api/chat-filter-presets')
@UserOnly()
export class PresetsController {
  constructor(private readonly presets: PresetsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's chat-filter presets, by name" })
  @ApiData(PresetViewDto, { isArray: true, description: 'Presets' })
  async list(@Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.list(tenantId, userId) };
  }

  @Post()
  @ApiOperation({ summary: 'Saves a named set of chat filters' })
  @ApiData(PresetViewDto, { status: 201, description: 'Created' })
  @ApiValidationFailed('Invalid body, or `errors.name` when the name is taken')
  async create(@Body() body: ChatFilterPresetDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.create(tenantId, userId, body.name, instanceToPlain(body.filters)) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One preset' })
  @ApiPresetId()
  @ApiData(PresetViewDto, { description: 'The preset' })
  @ApiNotOwned()
  async show(@Param('id', presetId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.get(tenantId, userId, id) };
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replaces a preset' })
  @ApiPresetId()
  @ApiData(PresetViewDto, { description: 'The preset' })
  @ApiNotOwned()
  @ApiValidationFailed()
  async update(@Param('id', presetId) id: string, @Body() body: ChatFilterPresetDto, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    return { data: await this.presets.update(tenantId, userId, id, body.name, instanceToPlain(body.filters)) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a preset' })
  @ApiPresetId()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotOwned()
  @HttpCode(204)
  async remove(@Param('id', presetId) id: string, @Req() req: KbRequest) {
    const { tenantId, userId } = caller(req);
    await this.presets.remove(tenantId, userId, id);
  }
}
