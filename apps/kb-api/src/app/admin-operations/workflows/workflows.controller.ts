import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { ListWorkflowsQueryDto } from './workflows.dto';
import { WorkflowsService } from './workflows.service';

/** /api/admin/workflows behind `can:viewWorkflows` (viewer, admin, super-admin): read only. */
@Controller('api/admin/workflows')
@Can('viewWorkflows')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Get()
  list(@Query() q: ListWorkflowsQueryDto, @Req() req: KbRequest) {
    return this.workflows.list(req.kbPrincipal!, q);
  }

  @Get(':kind/:id')
  async show(@Param('kind') kind: string, @Param('id') id: string, @Req() req: KbRequest) {
    return { data: await this.workflows.show(req.kbPrincipal!, kind, id) };
  }
}
