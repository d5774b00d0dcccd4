import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { Can } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { ListWidgetSessionsQueryDto } from './dto/widget-keys.dto';
import { SessionIdPipe } from './session-id.pipe';
import { WidgetSessionsAdminService } from './widget-sessions-admin.service';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiPage, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../api-docs';
import { WidgetSessionDto, WidgetSessionReplayDto } from './dto/widget-responses.dto';

const ApiSessionId = () => ApiParam({ name: 'id', description: 'Widget session id', schema: { type: 'string', format: 'uuid' } });
const ApiSessionNotFound = () =>
  ApiResponse({ status: 404, description: "Unknown or another tenant's session `{error: \"not_found\", message}`", type: ErrorBody });
const GATE = 'Gate `can:viewWidgetSessions` (admin, super-admin).';

const sessionId = new SessionIdPipe();

/** /api/admin/widget-sessions: `can:viewWidgetSessions` (admin, super-admin), read-only, in the active tenant. */
@ApiTags('Widget')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/widget-sessions')
@Can('viewWidgetSessions')
export class WidgetSessionsAdminController {
  constructor(private readonly sessions: WidgetSessionsAdminService) {}

  @Get()
  @ApiOperation({ summary: 'Widget sessions of the active tenant, most recently active first', description: GATE })
  @ApiPage(WidgetSessionDto)
  @ApiValidationFailed()
  list(@Query() q: ListWidgetSessionsQueryDto, @Req() req: KbRequest) {
    return this.sessions.list(req.kbPrincipal!.tenantId, q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One session', description: GATE })
  @ApiSessionId()
  @ApiData(WidgetSessionDto, { description: 'The session' })
  @ApiSessionNotFound()
  async show(@Param('id', sessionId) id: string, @Req() req: KbRequest) {
    return { data: await this.sessions.show(req.kbPrincipal!.tenantId, id) };
  }

  @Get(':id/replay')
  @ApiOperation({ summary: "The session's recorded steps (personal data masked)", description: GATE })
  @ApiSessionId()
  @ApiOkResponse({ description: 'Steps', type: WidgetSessionReplayDto })
  @ApiSessionNotFound()
  replay(@Param('id', sessionId) id: string, @Req() req: KbRequest) {
    return this.sessions.replay(req.kbPrincipal!.tenantId, id);
  }
}
