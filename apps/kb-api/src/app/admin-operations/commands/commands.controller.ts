import { Body, Controller, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { CommandHistoryQueryDto, CommandRequestDto } from './commands.dto';
import { CommandsService } from './commands.service';

/** /api/admin/commands behind gate G1; a destructive command's run also needs commands.destructive. */
@Controller('api/admin/commands')
@RequireRole(...G1_ROLES)
export class CommandsController {
  constructor(private readonly commands: CommandsService) {}

  @Get('catalogue')
  catalogue(@Req() req: KbRequest) {
    return { data: this.commands.catalogue(req.kbPrincipal!) };
  }

  @Post('preview')
  @HttpCode(200)
  async preview(@Body() body: CommandRequestDto, @Req() req: KbRequest) {
    return { data: await this.commands.preview(req.kbPrincipal!, body) };
  }

  /** 200 with the recorded run; a replay of an Idempotency-Key answers the first run with `Idempotent-Replayed: true`. */
  @Post('run')
  @HttpCode(200)
  async run(@Body() body: CommandRequestDto, @Headers('idempotency-key') key: string | undefined, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const { run, replayed } = await this.commands.run(req.kbPrincipal!, body, key);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    return { data: run };
  }

  @Get('history')
  history(@Query() q: CommandHistoryQueryDto, @Req() req: KbRequest) {
    return this.commands.history(req.kbPrincipal!, q);
  }

  @Get('scheduler-status')
  async schedulerStatus(@Req() req: KbRequest) {
    return { data: await this.commands.schedulerStatus(req.kbPrincipal!) };
  }
}
