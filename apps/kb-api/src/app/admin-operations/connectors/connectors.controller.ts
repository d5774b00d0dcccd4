import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { CreateConnectorDto, ListConnectorsQueryDto, UpdateConnectorDto } from './connectors.dto';
import { ConnectorsService } from './connectors.service';
import { RecordIdPipe } from '../../conversations/record-id';

const connectorId = new RecordIdPipe('Connector');

/** /api/admin/connectors behind `can:manageConnectors` (admin, super-admin). */
@Controller('api/admin/connectors')
@Can('manageConnectors')
export class ConnectorsController {
  constructor(private readonly connectors: ConnectorsService) {}

  @Get()
  list(@Query() q: ListConnectorsQueryDto, @Req() req: KbRequest) {
    return this.connectors.list(req.kbPrincipal!, q);
  }

  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateConnectorDto, @Req() req: KbRequest) {
    return { data: await this.connectors.create(req.kbPrincipal!, body) };
  }

  @Get(':id')
  async show(@Param('id', connectorId) id: string, @Req() req: KbRequest) {
    return { data: await this.connectors.show(req.kbPrincipal!, id) };
  }

  @Patch(':id')
  async update(@Param('id', connectorId) id: string, @Body() body: UpdateConnectorDto, @Req() req: KbRequest) {
    return { data: await this.connectors.update(req.kbPrincipal!, id, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', connectorId) id: string, @Req() req: KbRequest) {
    await this.connectors.remove(req.kbPrincipal!, id);
  }

  /** Runs the sync now and answers its run (documents are then indexed by the worker). */
  @Post(':id/sync')
  @HttpCode(200)
  async sync(@Param('id', connectorId) id: string, @Req() req: KbRequest) {
    return { data: await this.connectors.sync(req.kbPrincipal!, id) };
  }

  @Get(':id/runs')
  runs(@Param('id', connectorId) id: string, @Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.connectors.runs(req.kbPrincipal!, id, q);
  }
}
