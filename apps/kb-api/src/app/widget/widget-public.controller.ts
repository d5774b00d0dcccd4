import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/gates';
import { AI_DISCLOSURE } from '../chat/chat.controller';
import { ExecToolDto, SessionTokenDto, SetupQueryDto, StartSessionDto, StepDto, UserTokenDto } from './dto/widget-public.dto';
import { SessionIdPipe } from './session-id.pipe';
import { WidgetAccessService } from './widget-access.service';
import { IdentitySecretAuth, WidgetKeyGuard, WidgetRequest } from './widget-key.guard';
import { WidgetSessionsService } from './widget-sessions.service';

const sessionId = new SessionIdPipe();

/** /api/widget: no user auth; the widget key (or a token minted from it) authenticates, see WidgetKeyGuard. */
@Controller('api/widget')
@Public()
@UseGuards(WidgetKeyGuard)
export class WidgetPublicController {
  constructor(
    private readonly access: WidgetAccessService,
    private readonly sessions: WidgetSessionsService,
  ) {}

  @Get('setup')
  setup(@Query() q: SetupQueryDto, @Req() req: WidgetRequest) {
    return this.access.setup(req.widget!, q.skill);
  }

  @Post('session-token')
  @HttpCode(201)
  sessionToken(@Body() body: SessionTokenDto, @Req() req: WidgetRequest) {
    return this.access.sessionToken(req.widget!, body);
  }

  @Post('user-token')
  @HttpCode(201)
  @IdentitySecretAuth()
  userToken(@Body() body: UserTokenDto, @Req() req: WidgetRequest) {
    return this.access.userToken(req.widget!, body);
  }

  @Post('sessions/start')
  @HttpCode(200)
  @Header('X-AI-Disclosure', AI_DISCLOSURE)
  start(@Body() body: StartSessionDto, @Req() req: WidgetRequest) {
    return this.sessions.start(req.widget!, body);
  }

  @Get('sessions/current')
  current(@Req() req: WidgetRequest) {
    return this.sessions.current(req.widget!);
  }

  @Post('sessions/:id/step')
  @HttpCode(200)
  @Header('X-AI-Disclosure', AI_DISCLOSURE)
  step(@Param('id', sessionId) id: string, @Body() body: StepDto, @Req() req: WidgetRequest, @Res({ passthrough: true }) res: Response) {
    return this.sessions.step(req.widget!, id, body, res);
  }

  @Post('sessions/:id/exec-tool')
  @HttpCode(200)
  execTool(@Param('id', sessionId) id: string, @Body() body: ExecToolDto, @Req() req: WidgetRequest, @Res({ passthrough: true }) res: Response) {
    return this.sessions.execTool(req.widget!, id, body, res);
  }

  @Post('sessions/:id/cancel')
  @HttpCode(200)
  cancel(@Param('id', sessionId) id: string, @Req() req: WidgetRequest) {
    return this.sessions.cancel(req.widget!, id);
  }

  @Get('sessions/:id/replay')
  replay(@Param('id', sessionId) id: string, @Req() req: WidgetRequest) {
    return this.sessions.replay(req.widget!, id);
  }

  /** The spec lists replay among the widget's POST routes; the reference reads it with GET: both answer. */
  @Post('sessions/:id/replay')
  @HttpCode(200)
  replayPosted(@Param('id', sessionId) id: string, @Req() req: WidgetRequest) {
    return this.sessions.replay(req.widget!, id);
  }
}
