import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/gates';
import { AI_DISCLOSURE } from '../chat/chat.controller';
import { ExecToolDto, SessionTokenDto, SetupQueryDto, StartSessionDto, StepDto, UserTokenDto } from './dto/widget-public.dto';
import { SessionIdPipe } from './session-id.pipe';
import { WidgetAccessService } from './widget-access.service';
import { IdentitySecretAuth, WidgetKeyGuard, WidgetRequest } from './widget-key.guard';
import { WidgetSessionsService } from './widget-sessions.service';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ErrorBody } from '../api-docs';
import { ParkedToolCallDto } from '../tool-approvals/dto/parked-tool-call.dto';
import {
  WidgetCancelledDto,
  WidgetOpenSessionsDto,
  WidgetPublicReplayDto,
  WidgetReplyDto,
  WidgetSetupDto,
  WidgetTokenDto,
  WidgetToolOutcomeDto,
  WidgetUserTokenDto,
} from './dto/widget-responses.dto';
import { ApiWidgetCredentials, ApiWidgetError, ApiWidgetRateLimited, ApiWidgetRefusals, ApiWidgetSession, ApiWidgetSessionNotFound, ApiWidgetValidationFailed } from './widget-api-docs';

const sessionId = new SessionIdPipe();

/** /api/widget: no user auth; the widget key (or a token minted from it) authenticates, see WidgetKeyGuard. */
@ApiTags('Widget')
@Controller('api/widget')
@Public()
@UseGuards(WidgetKeyGuard)
export class WidgetPublicController {
  constructor(
    private readonly access: WidgetAccessService,
    private readonly sessions: WidgetSessionsService,
  ) {}

  @Get('setup')
  @ApiOperation({ summary: "The widget's configuration; the project comes from the key" })
  @ApiWidgetCredentials()
  @ApiOkResponse({ description: 'Setup', type: WidgetSetupDto })
  @ApiWidgetRefusals({ forbidden: 'widget_key_inactive, origin_not_allowed or skill_not_allowed' })
  @ApiWidgetError(404, 'skill_not_found')
  setup(@Query() q: SetupQueryDto, @Req() req: WidgetRequest) {
    return this.access.setup(req.widget!, q.skill);
  }

  @Post('session-token')
  @ApiOperation({
    summary:
      "A single-use session token (wt_…, 30 minutes) bound to the caller's origin; with session_id it opens only that session and carries its identity",
  })
  @ApiWidgetCredentials()
  @ApiBody({ type: SessionTokenDto, required: false })
  @ApiCreatedResponse({ description: 'Token', type: WidgetTokenDto })
  @ApiWidgetSessionNotFound()
  @ApiWidgetValidationFailed()
  @ApiWidgetRefusals()
  @HttpCode(201)
  sessionToken(@Body() body: SessionTokenDto, @Req() req: WidgetRequest) {
    return this.access.sessionToken(req.widget!, body);
  }

  @Post('user-token')
  @ApiOperation({
    summary: "A token for a host's signed-in user (wu_…, 30 minutes): the host's server sends X-Widget-Key and `Bearer <identity secret>`",
  })
  @ApiWidgetCredentials()
  @ApiHeader({ name: 'X-Widget-Key', required: true, schema: { type: 'string' } })
  @ApiHeader({ name: 'Authorization', required: true, description: '`Bearer wis_…`', schema: { type: 'string' } })
  @ApiCreatedResponse({ description: 'Token', type: WidgetUserTokenDto })
  @ApiWidgetError(401, 'widget_key_missing, widget_key_invalid or identity_credentials_invalid')
  @ApiWidgetError(403, 'widget_key_inactive or origin_not_allowed')
  @ApiWidgetValidationFailed()
  @ApiWidgetRateLimited()
  @HttpCode(201)
  @IdentitySecretAuth()
  userToken(@Body() body: UserTokenDto, @Req() req: WidgetRequest) {
    return this.access.userToken(req.widget!, body);
  }

  @Post('sessions/start')
  @ApiOperation({
    summary: "Opens a session; a message is answered (grounded chat over the key's project), proposes a tool, or is blocked",
  })
  @ApiWidgetCredentials()
  @ApiOkResponse({ description: 'The reply', type: WidgetReplyDto })
  @ApiResponse({ status: 422, description: '`{message, errors}`, or `{error}` snapshot_too_large / session_blocked (100 steps)', type: ErrorBody })
  @ApiWidgetRefusals()
  @HttpCode(200)
  @Header('X-AI-Disclosure', AI_DISCLOSURE)
  start(@Body() body: StartSessionDto, @Req() req: WidgetRequest) {
    return this.sessions.start(req.widget!, body);
  }

  @Get('sessions/current')
  @ApiOperation({
    summary:
      "The caller's open sessions (active, waiting_user, waiting_tool) by updated_at then id, descending; needs a session or user token (the identity)",
  })
  @ApiWidgetCredentials()
  @ApiOkResponse({ description: 'Sessions', type: WidgetOpenSessionsDto })
  @ApiWidgetRefusals()
  current(@Req() req: WidgetRequest) {
    return this.sessions.current(req.widget!);
  }

  @Post('sessions/:id/step')
  @ApiOperation({ summary: 'A further message and/or the result of the host tool the last tool_call asked for' })
  @ApiWidgetCredentials()
  @ApiWidgetSession()
  @ApiOkResponse({ description: 'The reply', type: WidgetReplyDto })
  @ApiWidgetRefusals()
  @ApiWidgetError(409, 'session_closed, or session_not_active (a tool_result while no tool call waits)')
  @ApiResponse({ status: 422, description: '`{message, errors}`, or `{error}` snapshot_too_large / session_blocked (100 steps)', type: ErrorBody })
  @ApiWidgetRateLimited('rate_limited, or session_rate_limited (30 steps a minute per session), with Retry-After')
  @HttpCode(200)
  @Header('X-AI-Disclosure', AI_DISCLOSURE)
  step(@Param('id', sessionId) id: string, @Body() body: StepDto, @Req() req: WidgetRequest, @Res({ passthrough: true }) res: Response) {
    return this.sessions.step(req.widget!, id, body, res);
  }

  @Post('sessions/:id/exec-tool')
  @ApiOperation({ summary: 'Runs a backend tool (kb_search) through the guardrails tool firewall; a refused call is reported, not run' })
  @ApiWidgetCredentials()
  @ApiWidgetSession()
  @ApiOkResponse({
    description: '`type: tool_result` with `result`, or `type: tool_refused` with `reason`, `violations`, `message`',
    type: WidgetToolOutcomeDto,
  })
  @ApiWidgetRefusals()
  @ApiWidgetError(409, 'session_closed (aborted, completed, blocked or error)')
  @ApiResponse({
    status: 422,
    description: "`{error: \"tool_not_enabled\"}` (not a backend tool of the key's skill), session_blocked, or `{message, errors}`",
    type: ErrorBody,
  })
  @ApiWidgetRateLimited('rate_limited or session_rate_limited, with Retry-After')
  @HttpCode(200)
  execTool(@Param('id', sessionId) id: string, @Body() body: ExecToolDto, @Req() req: WidgetRequest, @Res({ passthrough: true }) res: Response) {
    return this.sessions.execTool(req.widget!, id, body, res);
  }

  @Get('sessions/:id/calls/:approvalId')
  @ApiOperation({
    summary: 'How a backend tool call this session parked for human approval ended',
    description: [
      'An `exec-tool` call of a tool in `hitl.destructive_tools` answers `tool_refused` with reason `approval_required` and `approval_id`;',
      "the tenant's approvers are notified. This route answers `pending`, `running`, then `succeeded` with the tool's result (after the output guardrails",
      'and the indirect-injection screen), or `failed`, `rejected`, `expired` with `result.error` (`approval_rejected`, `approval_expired`).',
      "Only calls of this session, for a caller who may see the session: another session's call or an unknown id is a 404.",
    ].join(' '),
  })
  @ApiWidgetCredentials()
  @ApiWidgetSession()
  @ApiParam({ name: 'approvalId', schema: { type: 'string', format: 'uuid' } })
  @ApiData(ParkedToolCallDto, { description: 'The parked call' })
  @ApiWidgetRefusals()
  parkedCall(@Param('id', sessionId) id: string, @Param('approvalId') approvalId: string, @Req() req: WidgetRequest) {
    return this.sessions.parkedCall(req.widget!, id, approvalId);
  }

  @Post('sessions/:id/cancel')
  @ApiOperation({ summary: 'Aborts an open session' })
  @ApiWidgetCredentials()
  @ApiWidgetSession()
  @ApiOkResponse({ description: 'Aborted', type: WidgetCancelledDto })
  @ApiWidgetError(409, 'session_closed')
  @ApiWidgetRefusals()
  @HttpCode(200)
  cancel(@Param('id', sessionId) id: string, @Req() req: WidgetRequest) {
    return this.sessions.cancel(req.widget!, id);
  }

  @Get('sessions/:id/replay')
  @ApiOperation({ summary: "The session's recorded steps, personal data masked" })
  @ApiWidgetCredentials()
  @ApiWidgetSession()
  @ApiOkResponse({ description: 'Steps', type: WidgetPublicReplayDto })
  @ApiWidgetRefusals()
  replay(@Param('id', sessionId) id: string, @Req() req: WidgetRequest) {
    return this.sessions.replay(req.widget!, id);
  }

  /** The spec lists replay among the widget's POST routes; the reference reads it with GET: both answer. */
  @Post('sessions/:id/replay')
  @ApiOperation({ summary: "The same as GET (the route is also listed among the widget's POST routes)" })
  @ApiWidgetCredentials()
  @ApiWidgetSession()
  @ApiOkResponse({ description: 'Steps', type: WidgetPublicReplayDto })
  @ApiWidgetRefusals()
  @HttpCode(200)
  replayPosted(@Param('id', sessionId) id: string, @Req() req: WidgetRequest) {
    return this.sessions.replay(req.widget!, id);
  }
}
