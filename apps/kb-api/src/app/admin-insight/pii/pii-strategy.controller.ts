import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { PutPiiStrategyDto } from './pii-strategy.dto';
import { PiiStrategyService } from './pii-strategy.service';

/** /api/admin/pii/strategy behind `can:viewPiiRedactorAdmin` (admin, super-admin, dpo). */
@Controller('api/admin/pii/strategy')
@Can('viewPiiRedactorAdmin')
export class PiiStrategyController {
  constructor(private readonly strategies: PiiStrategyService) {}

  @Get()
  async show(@Req() req: KbRequest) {
    return { data: await this.strategies.show(req.kbPrincipal!.tenantId) };
  }

  @Put()
  async update(@Body() body: PutPiiStrategyDto, @Req() req: KbRequest) {
    return { data: await this.strategies.update(req.kbPrincipal!, body) };
  }
}
