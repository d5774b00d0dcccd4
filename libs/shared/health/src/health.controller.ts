import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ReadinessService } from './readiness.service';

// Operational endpoints described in the runbook, not part of a service's API document.
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Process only: never touches a dependency, so a database blip does not restart pods. */
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() res: Response) {
    const report = await this.readiness.report();
    res.status(report.status === 'ok' ? 200 : 503).setHeader('Cache-Control', 'no-store').json(report);
  }
}
