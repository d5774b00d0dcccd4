import { Body, Controller, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { CommandHistoryQueryDto, CommandRequestDto } from './commands.dto';
import { CommandsService } from './commands.service';
import { ApiBody, ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ApiData, ApiPage, ErrorBody } from '../../api-docs';
import { ApiGatedOperation, ApiOperationsAdmin, ApiOperationsValidationFailed } from '../operations-api-docs';
import { OpsCommandDto, OpsCommandPreviewDto, OpsCommandRunDto, OpsCommandScheduleDto } from '../operations-responses.dto';

/** /api/admin/commands behind gate G1; a destructive command's run also needs commands.destructive. */
@ApiOperationsAdmin()
@Controller('api/admin/commands')
@RequireRole(...G1_ROLES)
export class CommandsController {
  constructor(private readonly commands: CommandsService) {}

  @Get('catalogue')
  @ApiGatedOperation(
    'g1',
    'The maintenance commands with their typed parameters',
    '`allowed` says whether the caller may run the command (a destructive one also needs permission commands.destructive).',
  )
  @ApiData(OpsCommandDto, { isArray: true, description: 'Commands' })
  catalogue(@Req() req: KbRequest) {
    return { data: this.commands.catalogue(req.kbPrincipal!) };
  }

  @Post('preview')
  @ApiGatedOperation('g1', 'What a run would change, as counts, without changing anything', 'Previewing a destructive command needs no extra permission.')
  @ApiData(OpsCommandPreviewDto, { description: 'Counts' })
  @ApiOperationsValidationFailed()
  @HttpCode(200)
  async preview(@Body() body: CommandRequestDto, @Req() req: KbRequest) {
    return { data: await this.commands.preview(req.kbPrincipal!, body) };
  }

  /** 200 with the recorded run; a replay of an Idempotency-Key answers the first run with `Idempotent-Replayed: true`. */
  @Post('run')
  @ApiGatedOperation(
    'g1',
    'Runs a command in the active tenant and records it in the history',
    'A destructive command also needs permission commands.destructive (403). With an `Idempotency-Key` header the command runs once per key and tenant: a retry answers the first run with `Idempotent-Replayed: true`; the key with another command or other parameters is a 409.',
  )
  @ApiHeader({ name: 'Idempotency-Key', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } })
  @ApiBody({ type: CommandRequestDto })
  @ApiData(OpsCommandRunDto, { description: 'The recorded run (`status` succeeded or failed)' })
  @ApiResponse({ status: 409, description: '`{error: "idempotency_key_reused", message, run_id}`', type: ErrorBody })
  @ApiOperationsValidationFailed()
  @HttpCode(200)
  async run(@Body() body: CommandRequestDto, @Headers('idempotency-key') key: string | undefined, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const { run, replayed } = await this.commands.run(req.kbPrincipal!, body, key);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    return { data: run };
  }

  @Get('history')
  @ApiGatedOperation('g1', 'Command runs, newest first')
  @ApiPage(OpsCommandRunDto, 'A page of runs')
  @ApiOperationsValidationFailed()
  history(@Query() q: CommandHistoryQueryDto, @Req() req: KbRequest) {
    return this.commands.history(req.kbPrincipal!, q);
  }

  @Get('scheduler-status')
  @ApiGatedOperation('g1', 'The scheduled commands (CLI task run by a CronJob), with their last run and next due time')
  @ApiData(OpsCommandScheduleDto, { isArray: true, description: 'Schedules' })
  async schedulerStatus(@Req() req: KbRequest) {
    return { data: await this.commands.schedulerStatus(req.kbPrincipal!) };
  }
}
