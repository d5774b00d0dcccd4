import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { ListWorkflowsQueryDto } from './workflows.dto';
import { WorkflowsService } from './workflows.service';
import { ApiParam } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage } from '../../api-docs';
import { ApiGatedOperation, ApiOperationsAdmin, ApiOperationsValidationFailed } from '../operations-api-docs';
import { OpsWorkflowDetailDto, OpsWorkflowDto } from '../operations-responses.dto';
import { WORKFLOW_KINDS } from './workflows.dto';

/** /api/admin/workflows behind `can:viewWorkflows` (viewer, admin, super-admin): read only. */
@ApiOperationsAdmin()
@Controller('api/admin/workflows')
@Can('viewWorkflows')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Get()
  @ApiGatedOperation('workflows', 'The KB flows (promotion approvals, document ingests, connector syncs, command runs), newest first')
  @ApiPage(OpsWorkflowDto, 'A page of flows')
  @ApiOperationsValidationFailed()
  list(@Query() q: ListWorkflowsQueryDto, @Req() req: KbRequest) {
    return this.workflows.list(req.kbPrincipal!, q);
  }

  @Get(':kind/:id')
  @ApiGatedOperation('workflows', 'One flow with its steps and timestamps')
  @ApiParam({ name: 'kind', enum: WORKFLOW_KINDS })
  @ApiParam({ name: 'id', description: 'A uuid for promotion, else a row id', schema: { type: 'string' } })
  @ApiData(OpsWorkflowDetailDto, { description: 'Flow' })
  @ApiNotFound('flow')
  async show(@Param('kind') kind: string, @Param('id') id: string, @Req() req: KbRequest) {
    return { data: await this.workflows.show(req.kbPrincipal!, kind, id) };
  }
}
