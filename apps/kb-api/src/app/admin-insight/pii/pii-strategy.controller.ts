import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiTenantHeader, ApiValidationFailed, ErrorBody } from '../../api-docs';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { PiiStrategyDto, PutPiiStrategyDto } from './pii-strategy.dto';
import { PiiStrategyService } from './pii-strategy.service';

const ApiNotPiiAdmin = () => ApiResponse({ status: 403, description: 'Not admin, super-admin or dpo', type: ErrorBody });
const GATE = 'Gate `can:viewPiiRedactorAdmin` (admin, super-admin, dpo).';

/** /api/admin/pii/strategy behind `can:viewPiiRedactorAdmin` (admin, super-admin, dpo). */
@ApiTags('Admin insight')
@ApiGuarded()
@ApiTenantHeader()
@Controller('api/admin/pii/strategy')
@Can('viewPiiRedactorAdmin')
export class PiiStrategyController {
  constructor(private readonly strategies: PiiStrategyService) {}

  @Get()
  @ApiOperation({
    summary: "The tenant's PII strategy: one action per guardrails detector (default mask), and the detokenize permission",
    description: GATE,
  })
  @ApiData(PiiStrategyDto, { description: 'Strategy' })
  @ApiNotPiiAdmin()
  async show(@Req() req: KbRequest) {
    return { data: await this.strategies.show(req.kbPrincipal!.tenantId) };
  }

  @Put()
  @ApiOperation({
    summary: 'Changes the actions of the detectors given (others keep theirs) and optionally the detokenize permission',
    description: `${GATE} Changing \`detokenize_permission\` also needs the permission it names now and the new one (403 otherwise, nothing stored). Applies to chat logs written from now on: \`mask\` writes \`[REDACTED:<detector>]\`, \`tokenize\` writes \`[PII:<detector>:<uuid>]\` and keeps the value encrypted, \`keep\` stores it as asked.`,
  })
  @ApiData(PiiStrategyDto, { description: 'Strategy' })
  @ApiResponse({
    status: 403,
    description: 'Not admin, super-admin or dpo; or a change of `detokenize_permission` by a caller lacking the permission in force or the new one',
    type: ErrorBody,
  })
  @ApiValidationFailed('Unknown detector `errors["actions.<detector>"]`, bad action, unknown permission')
  async update(@Body() body: PutPiiStrategyDto, @Req() req: KbRequest) {
    return { data: await this.strategies.update(req.kbPrincipal!, body) };
  }
}
